#!/usr/bin/env python3
"""Fails when the test servers' pins (httpbin's in Tests/Servers/httpbin.py, h2's in duplex_server.py) cannot install
on a Python a contributor has (make portability): each supported CPython, here (Linux x86_64) and on a Mac (Apple
silicon and Intel).

pip's `--python-version` and `--platform` choose wheels and read `Requires-Python` for the target, but evaluate
environment markers for the Python running pip; so the pins are chosen here for each target (their markers
evaluated for it), pip resolves them with `--no-deps` (a wheel for that Python and platform, and its
Requires-Python), and this script then checks that what each pinned package requires, markers evaluated for the
target, is in the pinned set at a version it accepts: nothing would be fetched unpinned or refused. PyPI must be
reachable (as for `make test`). A pass is remembered in .build for the same pins, Pythons and platforms (a
published file never changes on PyPI), so only a fresh clone or a change of pins asks PyPI again (36 resolutions,
about two minutes). First, every script under Tests/Servers must parse as the oldest of those Pythons (Xcode's
python3 is 3.9): the servers run on whatever python3 a contributor has; and make test must stop in one line, before
any server starts, when no Python has TLS 1.3 (Xcode's has not; the fault server needs it): checked with a probe that
finds none. Usage: httpbin_pins_check.py [3.9 3.12 …]
"""
import ast
import concurrent.futures
import glob
import json
import os
import platform
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Servers"))
import httpbin  # noqa: E402  (the pins and the supported Pythons)
import duplex_server  # noqa: E402  (its pins)

# The servers that install packages, each with its pins.
SERVERS = [("httpbin", httpbin.PINS), ("duplex_server", duplex_server.PINS)]

try:
    from pip._vendor.packaging.markers import Marker
    from pip._vendor.packaging.requirements import Requirement
    from pip._vendor.packaging.utils import canonicalize_name
except ImportError:  # a pip without its vendored copy: the packaging distribution itself
    from packaging.markers import Marker
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

# (name, pip's --platform or None for this machine, marker environment).
PLATFORMS = [
    ("here", None, {"sys_platform": sys.platform, "platform_system": platform.system(),
                    "platform_machine": platform.machine()}),
    # Xcode 16 needs macOS 14.5 or later: wheels for any macOS up to 14.0 install there.
    ("macOS arm64", "macosx_14_0_arm64",
     {"sys_platform": "darwin", "platform_system": "Darwin", "platform_machine": "arm64"}),
    ("macOS x86_64", "macosx_14_0_x86_64",
     {"sys_platform": "darwin", "platform_system": "Darwin", "platform_machine": "x86_64"}),
]


def environment(version, machine):
    major, minor = version
    return dict(machine, python_version=f"{major}.{minor}", python_full_version=f"{major}.{minor}.0",
                implementation_name="cpython", platform_python_implementation="CPython", os_name="posix",
                platform_release="", platform_version="", implementation_version=f"{major}.{minor}.0", extra="")


def pins_for(env, pins):
    """The `pins` whose markers hold in `env`, without their markers."""
    chosen = []
    for pin in pins:
        requirement = Requirement(pin)
        if requirement.marker is None or requirement.marker.evaluate(env):
            requirement.marker = None
            chosen.append(str(requirement))
    return chosen


def check(version, name, pip_platform, machine, pins):
    """Problems installing `pins` for CPython `version` on the platform: [] when they install."""
    env = environment(version, machine)
    pins = pins_for(env, pins)
    with tempfile.TemporaryDirectory() as scratch:
        report = os.path.join(scratch, "report.json")
        command = [sys.executable, "-m", "pip", "install", "--dry-run", "--no-deps", "--ignore-installed",
                   "--only-binary=:all:", "--python-version", "%d.%d" % version, "--target",
                   os.path.join(scratch, "target"), "--disable-pip-version-check", "--no-input", "--quiet",
                   "--timeout", "60", "--report", report] + (["--platform", pip_platform] if pip_platform else [])
        result = subprocess.run(command + pins, capture_output=True, text=True)
        if result.returncode != 0:
            lines = [line for line in result.stderr.splitlines() if line.startswith("ERROR") and "Ignored" not in line]
            return [lines[-1] if lines else result.stderr.strip()[-300:]]
        with open(report) as f:
            installed = json.load(f)["install"]
    versions = {canonicalize_name(item["metadata"]["name"]): item["metadata"]["version"] for item in installed}
    problems = []
    for item in installed:
        for text in item["metadata"].get("requires_dist", []):
            requirement = Requirement(text)
            if requirement.marker is not None and not requirement.marker.evaluate(env):
                continue  # not for this Python or platform, or an extra nobody asks for
            have = versions.get(canonicalize_name(requirement.name))
            if have is None:
                problems.append(f"{item['metadata']['name']} needs {requirement.name}, which is not pinned")
            elif not requirement.specifier.contains(have, prereleases=True):
                problems.append(f"{item['metadata']['name']} needs {requirement}, pinned {have}")
    return problems


def newer_syntax(oldest):
    """The server scripts that do not parse as Python `oldest` (a match statement, say), with the reason."""
    found = []
    for path in sorted(glob.glob(os.path.join(httpbin.ROOT, "Tests", "Servers", "*.py"))):
        with open(path, encoding="utf-8") as f:
            try:
                ast.parse(f.read(), path, feature_version=oldest)
            except SyntaxError as error:
                found.append(f"{os.path.relpath(path, httpbin.ROOT)}:{error.lineno}: not Python"
                             f" {oldest[0]}.{oldest[1]}: {error.msg}")
    return found


def tls13_guard():
    """Why make test would not stop at once, in one line, where no Python has TLS 1.3: [] when it would."""
    recipe = re.search(r"^test:.*\n((?:\t.*\n)+)", open(os.path.join(httpbin.ROOT, "Makefile")).read(), re.MULTILINE)
    commands = [line.strip() for line in (recipe.group(1) if recipe else "").splitlines()
                if not line.strip().startswith("@#")]
    if not commands or "lifecycle.py tls13-python" not in commands[0]:
        return ["Makefile: make test's first command is not `python3 Tests/Servers/lifecycle.py tls13-python`"]
    # The guard with a probe no Python passes, as on a Mac with Xcode's python3 alone.
    probe = ("import sys; sys.path.insert(0, sys.argv[1]); import lifecycle;"
             " lifecycle.TLS13 = 'import sys; sys.exit(1)'; sys.exit(lifecycle.main(['tls13-python']))")
    result = subprocess.run([sys.executable, "-c", probe, os.path.dirname(httpbin.__file__)], capture_output=True,
                            text=True, timeout=120)
    lines = result.stderr.strip().splitlines()
    if result.returncode == 0 or len(lines) != 1 or "brew install python@" not in lines[0]:
        return [f"lifecycle.py tls13-python, where no Python has TLS 1.3: status {result.returncode}, said"
                f" {result.stderr.strip()[-300:]!r} (one line naming what to install expected)"]
    return []


def main(arguments):
    wanted = [tuple(int(n) for n in text.split(".")) for text in arguments] or httpbin.supported_pythons()
    syntax = newer_syntax(min(wanted)) + tls13_guard()
    for problem in syntax:
        print(problem)
    if syntax:
        return 1
    print(f"httpbin_pins_check: every script of Tests/Servers parses as Python {min(wanted)[0]}.{min(wanted)[1]}, and"
          " make test stops in one line, before any server starts, where no Python has TLS 1.3")
    jobs = [(version, platform_, server) for server in SERVERS for version in wanted for platform_ in PLATFORMS]
    names = ", ".join("%d.%d" % version for version in wanted)
    passed = {"pins": dict(SERVERS), "pythons": names, "platforms": [[name, env] for name, _, env in PLATFORMS]}
    stamp = os.path.join(httpbin.ROOT, ".build", "portability", "httpbin-pins.json")
    try:
        with open(stamp) as f:
            if json.load(f) == passed:
                print(f"httpbin_pins_check: httpbin's and duplex_server's pins install on CPython {names}, here"
                      " and on macOS (arm64, x86_64), as checked for these pins before")
                return 0
    except (OSError, ValueError):
        pass
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=6) as pool:
        results = pool.map(lambda job: (job, check(job[0], *job[1], job[2][1])), jobs)
        for (version, (name, _, _), (server, _)), problems in results:
            for problem in problems:
                print(f"{server} pins, CPython {version[0]}.{version[1]} on {name}: {problem}")
            failed += bool(problems)
    if failed:
        print(f"httpbin_pins_check: {failed} of {len(jobs)} server, Python and platform triples cannot install the"
              " pins of Tests/Servers/httpbin.py or duplex_server.py", file=sys.stderr)
        return 1
    print(f"httpbin_pins_check: httpbin's and duplex_server's pins install from wheels on CPython {names}, here and"
          " on macOS (arm64, x86_64), each package's requirements inside the pinned set")
    os.makedirs(os.path.dirname(stamp), exist_ok=True)
    with open(stamp, "w") as f:
        json.dump(passed, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
