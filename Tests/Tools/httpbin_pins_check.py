#!/usr/bin/env python3
"""Fails when httpbin's pins (Tests/Servers/httpbin.py) cannot install on a Python a contributor has (make
portability): each supported CPython, here (Linux x86_64) and on a Mac (Apple silicon and Intel).

pip's `--python-version` and `--platform` choose wheels and read `Requires-Python` for the target, but evaluate
environment markers for the Python running pip; so the pins are chosen here for each target (their markers
evaluated for it), pip resolves them with `--no-deps` (a wheel for that Python and platform, and its
Requires-Python), and this script then checks that what each pinned package requires, markers evaluated for the
target, is in the pinned set at a version it accepts: nothing would be fetched unpinned or refused. PyPI must be
reachable (as for `make test`). A pass is remembered in .build for the same pins, Pythons and platforms (a
published file never changes on PyPI), so only a fresh clone or a change of pins asks PyPI again (18 resolutions,
about a minute). First, every script under Tests/Servers must parse as the oldest of those Pythons (Xcode's
python3 is 3.9): the servers run on whatever python3 a contributor has. Usage: httpbin_pins_check.py [3.9 3.12 …]
"""
import ast
import concurrent.futures
import glob
import json
import os
import platform
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Servers"))
import httpbin  # noqa: E402  (the pins and the supported Pythons)

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


def pins_for(env):
    """The pins whose markers hold in `env`, without their markers."""
    chosen = []
    for pin in httpbin.PINS:
        requirement = Requirement(pin)
        if requirement.marker is None or requirement.marker.evaluate(env):
            requirement.marker = None
            chosen.append(str(requirement))
    return chosen


def check(version, name, pip_platform, machine):
    """Problems installing the pins for CPython `version` on the platform: [] when they install."""
    env = environment(version, machine)
    pins = pins_for(env)
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


def main(arguments):
    wanted = [tuple(int(n) for n in text.split(".")) for text in arguments] or httpbin.supported_pythons()
    syntax = newer_syntax(min(wanted))
    for problem in syntax:
        print(problem)
    if syntax:
        return 1
    print(f"httpbin_pins_check: every script of Tests/Servers parses as Python {min(wanted)[0]}.{min(wanted)[1]}")
    jobs = [(version, platform_) for version in wanted for platform_ in PLATFORMS]
    names = ", ".join("%d.%d" % version for version in wanted)
    passed = {"pins": httpbin.PINS, "pythons": names, "platforms": [[name, env] for name, _, env in PLATFORMS]}
    stamp = os.path.join(httpbin.ROOT, ".build", "portability", "httpbin-pins.json")
    try:
        with open(stamp) as f:
            if json.load(f) == passed:
                print(f"httpbin_pins_check: the pins install on CPython {names}, here and on macOS (arm64,"
                      " x86_64), as checked for these pins before")
                return 0
    except (OSError, ValueError):
        pass
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=6) as pool:
        results = pool.map(lambda job: (job, check(job[0], *job[1])), jobs)
        for (version, (name, _, _)), problems in results:
            for problem in problems:
                print(f"httpbin pins, CPython {version[0]}.{version[1]} on {name}: {problem}")
            failed += bool(problems)
    if failed:
        print(f"httpbin_pins_check: {failed} of {len(jobs)} Python and platform pairs cannot install the pins of"
              " Tests/Servers/httpbin.py", file=sys.stderr)
        return 1
    print(f"httpbin_pins_check: the pins install from wheels on CPython {names}, here and on macOS (arm64,"
          " x86_64), each package's requirements inside the pinned set")
    os.makedirs(os.path.dirname(stamp), exist_ok=True)
    with open(stamp, "w") as f:
        json.dump(passed, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
