#!/usr/bin/env python3
"""The API breakage check: compares the public API of every module the library products ship with the baseline of
the last release (Tests/API/<version>/<Module>.json.gz, written by `make api-baseline` when a version is released)
and fails on a source-breaking change that CHANGELOG.md does not announce under a new major version.

    api_check.py check       what `make api-check` and .ci/run run (after `swift build`)
    api_check.py baseline    writes the baseline of the version CHANGELOG.md names last (at a release)

Swift's own swift-api-digester reads the built modules (.build/debug/Modules); additions and deprecations are not
breaks, removals, renames and changed types are, and so is a declaration whose mangled signature changed under the
same name (what the digester's diagnosis leaves out: a typed throw's error type, for one). The baseline is taken on Linux, and the API differs per platform
(Apple-only declarations): run the check on Linux, as CI does. A reported change that is not a break can be listed,
word for word, in Tests/API/allowlist.txt, with the reason on the line above it."""
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODULES = [
    "NetworkingHTTP", "NetworkingCore", "NetworkingTLS", "NetworkingURLSession", "NetworkingCurl",
    "NetworkingTransports", "NetworkingAuth", "NetworkingResilience", "NetworkingHTTPCache", "NetworkingCookies",
    "NetworkingObservability", "NetworkingTransfers", "NetworkingModifiers", "NetworkingWebSocket", "Networking",
    "NetworkingFixtures",
    "NetworkingTesting",
]
VERSION = re.compile(r"^## \[(\d+)\.(\d+)\.(\d+)\]", re.M)


def versions():
    """The released versions CHANGELOG.md lists, newest first."""
    text = open(os.path.join(ROOT, "CHANGELOG.md"), encoding="utf-8").read()
    return [tuple(int(part) for part in match) for match in VERSION.findall(text)]


def modules_dir():
    return os.path.join(ROOT, ".build", "debug", "Modules")


def digester(*arguments):
    # The libcurl transport imports the package's own C module, whose module map SwiftPM writes into the build.
    shim = os.path.join(ROOT, ".build", "debug", "CCurlShim.build", "module.modulemap")
    return subprocess.run(["swift-api-digester", *arguments, "-Xcc", f"-fmodule-map-file={shim}", "-Xcc",
                           "-I" + os.path.join(ROOT, "Sources", "CCurlShim", "include")], capture_output=True, text=True)


def baseline():
    version = ".".join(map(str, versions()[0]))
    folder = os.path.join(ROOT, "Tests", "API", version)
    os.makedirs(folder, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        for module in MODULES:
            dump = os.path.join(scratch, module + ".json")
            result = digester("-dump-sdk", "-module", module, "-I", modules_dir(), "-o", dump, "-avoid-location",
                              "-avoid-tool-args", "-abort-on-module-fail")
            if result.returncode != 0 or not os.path.exists(dump):
                sys.exit(f"api_check: cannot dump {module}: {result.stderr.strip()} (run swift build first)")
            with open(dump, "rb") as source, gzip.GzipFile(os.path.join(folder, module + ".json.gz"), "wb",
                                                            mtime=0) as target:
                target.write(source.read())
    print(f"api_check: the baseline of {version} is in {os.path.relpath(folder, ROOT)} ({len(MODULES)} modules)")


def signatures(node, parents=(), found=None):
    """Every function, initializer and subscript of a dump: (its place, printed name, static) -> mangled name. The
    mangled name carries what the digester's diagnosis does not compare, such as a typed throw's error type."""
    found = {} if found is None else found
    if isinstance(node, dict):
        name = node.get("printedName", "")
        if node.get("kind") in ("Function", "Constructor", "Subscript") and node.get("mangledName"):
            found[(parents, name, node.get("static", False))] = node["mangledName"]
        for child in node.get("children", []):
            signatures(child, parents + (name,) if node.get("kind") not in ("Root", None) else parents, found)
    return found


def changed_signatures(module, baseline_path, scratch):
    """Declarations kept under their name whose signature changed (a thrown type, a closure's @Sendable)."""
    current = os.path.join(scratch, module + ".now.json")
    result = digester("-dump-sdk", "-module", module, "-I", modules_dir(), "-o", current, "-avoid-location",
                      "-avoid-tool-args", "-abort-on-module-fail")
    if result.returncode != 0 or not os.path.exists(current):
        sys.exit(f"api_check: cannot dump {module}: {result.stderr.strip()} (run swift build first)")
    with open(baseline_path, encoding="utf-8") as old, open(current, encoding="utf-8") as new:
        before, after = signatures(json.load(old)["ABIRoot"]), signatures(json.load(new)["ABIRoot"])
    return [f"Signature {'.'.join(place + (name,))} has changed (mangled {before[key]} -> {after[key]})"
            for key in sorted(before.keys() & after.keys()) if before[key] != after[key]
            for place, name, _ in [key]]


def check():
    released = versions()
    baselines = sorted((tuple(int(p) for p in name.split(".")), name)
                       for name in os.listdir(os.path.join(ROOT, "Tests", "API")) if re.fullmatch(r"\d+\.\d+\.\d+", name))
    if not baselines:
        sys.exit("api_check: no baseline under Tests/API: run make api-baseline at a release")
    base, base_name = baselines[-1]
    newest = released[0] if released else base
    announced = newest[0] > base[0]
    allowlist = set()
    path = os.path.join(ROOT, "Tests", "API", "allowlist.txt")
    if os.path.exists(path):
        allowlist = {line.strip() for line in open(path, encoding="utf-8") if line.strip() and not line.startswith("#")}
    breaks = []
    with tempfile.TemporaryDirectory() as scratch:
        for module in MODULES:
            packed = os.path.join(ROOT, "Tests", "API", base_name, module + ".json.gz")
            if not os.path.exists(packed):
                continue  # a module the release did not have: all of it is new
            json_path = os.path.join(scratch, module + ".json")
            with gzip.open(packed, "rb") as source, open(json_path, "wb") as target:
                target.write(source.read())
            result = digester("-diagnose-sdk", "-module", module, "-I", modules_dir(), "-baseline-path", json_path,
                              "-abort-on-module-fail")
            if result.returncode != 0 and "error:" in result.stderr and "cannot" in result.stderr:
                sys.exit(f"api_check: cannot read {module}: {result.stderr.strip()} (run swift build first)")
            for line in (result.stdout + result.stderr).splitlines():
                line = line.strip()
                if not line or line.startswith("/*") or line in allowlist:
                    continue
                if re.match(r"^(Var|Func|Constructor|Subscript|Struct|Class|Enum|EnumElement|Protocol|TypeAlias|"
                            r"AssociatedType|Accessor|Extension|Import|Macro)\b", line):
                    breaks.append(f"{module}: {line}")
            breaks += [f"{module}: {line}" for line in changed_signatures(module, json_path, scratch)
                       if line not in allowlist]
    if not breaks:
        print(f"api_check: no breaking change against {base_name} in {len(MODULES)} modules")
        return
    for line in breaks:
        print("  " + line)
    if announced:
        print(f"api_check: {len(breaks)} breaking changes against {base_name}, announced by "
              f"{'.'.join(map(str, newest))} in CHANGELOG.md")
        return
    sys.exit(f"api_check: {len(breaks)} source-breaking changes against {base_name}, and CHANGELOG.md announces no new "
             f"major version (its newest is {'.'.join(map(str, newest))}): keep the old spelling (a deprecated alias), "
             "or add a ## [{}.0.0] entry saying what breaks".format(base[0] + 1))


if __name__ == "__main__":
    {"check": check, "baseline": baseline}.get(sys.argv[1] if len(sys.argv) > 1 else "", lambda: sys.exit(__doc__))()
