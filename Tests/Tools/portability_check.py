#!/usr/bin/env python3
"""Fails when a Swift file names a platform-only API outside a platform condition (make portability).

Linux is where this package is built every day; a Mac or an iPhone is not. What only one platform has must sit in
an `#if os(...)` or `#if canImport(...)` region, or the Apple build breaks on a line nobody here compiled. Each
occurrence below, outside comments, must be inside such a region (either branch: the `#else` of `os(macOS)` is
platform code too). And each platform region of the library (not the demo, benchmarks or fuzzer) that holds more
than imports says, in a `//` comment just above it, the Apple documentation it was checked against ("Apple docs
checked", a developer.apple.com page, or "as above" for the same check again).

Two rules more:
  - no `canImport(X)` of one of this package's own modules (Package.swift's targets): whether a module of the same
    build can be imported depends on what was built before, not on the platform (on iOS a test target's direct
    dependency on NetworkingCurl made it importable in NetworkingTransports, which does not depend on it there);
    say the platforms Package.swift's condition names, `#if os(Linux) || os(macOS)`;
  - no stored `Process` (or `ChildProcess`) property in a type declared `Sendable` or `@unchecked Sendable`: `Process`
    was not `Sendable` in older Apple SDKs and is not known to be in Xcode 16.0's; hold it in a `LockedBox`;
  - a public type of a module Package.swift gives to some platforms only (NetworkingCurl: Linux and macOS), named in a
    file of another target outside a platform condition, only with that module imported by the file: `Networking`
    re-exports it on Linux and macOS alone, so a file leaning on the re-export (the benchmarks' `CurlTransport`)
    does not compile for iOS;
  - an exit test (`#expect(processExitsWith:)`) only inside `#if compiler(>=6.2)` and a condition naming the
    platforms that have them, `(os(macOS) || os(Linux) || os(Windows))` or `canImport(FoundationNetworking)`:
    Swift Testing has them from 6.2, and marks them unavailable on iOS, tvOS, watchOS and visionOS
    (SWT_NO_EXIT_TESTS in its Package.swift), so the test target would not compile there.
`--self-test` runs all the rules on fixtures with known findings. Usage: portability_check.py [--self-test] DIR...
"""
import re
import sys
import textwrap
from pathlib import Path

from availability_check import blank, self_test_first

ROOT = Path(__file__).resolve().parents[2]

# What only some platforms have, by the name code would use.
PLATFORM_ONLY = {
    r"\bGlibc\b": "Glibc (Linux's C library)",
    r"\bDarwin\b": "Darwin (Apple's C library)",
    r"\bFoundationNetworking\b": "FoundationNetworking (Linux's URLSession module)",
    r"/proc/": "/proc (Linux only)",
    r"libcurl\.so": "libcurl.so (Linux's file name for libcurl)",
    r"\bUIKit\b|\bUIApplication\b": "UIKit (iOS and tvOS)",
    r"\bSecTrust\w*|\bimport Security\b": "Security (Apple only)",
    r"\bProcess\(\)": "Process (macOS and Linux; use ChildProcess in tests)",
    r"\bSynchronization\b": "Synchronization (Mutex needs macOS 15 / iOS 18)",
}
GUARD = re.compile(r"\b(os|canImport)\(")
CHECKED = re.compile(r"Apple docs checked|developer\.apple\.com|as above|Package\.swift")
NOT_LIBRARY = ("Benchmarks", "Demo", "Fuzz")


def unexplained_regions(path, lines):
    """Platform regions of library code holding more than imports, with no comment naming what was checked."""
    if path.parts[0] != "Sources" or any(part in NOT_LIBRARY for part in path.parts):
        return []
    found = []
    for index, line in enumerate(lines):
        stripped = line.strip()
        if not (stripped.startswith(("#if ", "#elseif ")) and GUARD.search(stripped)):
            continue
        body = []
        for following in lines[index + 1:]:
            if following.strip().startswith("#"):
                break
            body.append(following.strip())
        if all(not text or text.startswith("import ") for text in body):
            continue
        comments = []
        for previous in reversed(lines[:index]):
            if not previous.strip().startswith("//") or previous.strip().startswith("///"):
                break
            comments.append(previous)
        if not any(CHECKED.search(comment) for comment in comments):
            found.append(f"{path}:{index + 1}: platform region without the Apple documentation it was checked"
                         f" against in a comment above it: {stripped}")
    return found


def own_modules():
    """The package's targets, from Package.swift."""
    text = (ROOT / "Package.swift").read_text(encoding="utf-8")
    return set(re.findall(r"\.(?:target|executableTarget|testTarget)\(\s*name:\s*\"(\w+)\"", text))


def own_module_imports(path, text, modules):
    """`canImport(X)` of a module of this package: a condition that depends on build order."""
    found = []
    for number, line in enumerate(blank(text).split("\n"), 1):
        for module in re.findall(r"canImport\(\s*(\w+)\s*\)", line):
            if module in modules:
                found.append(f"{path}:{number}: canImport({module}) names a module of this package; say the"
                             f" platforms Package.swift gives it (#if os(Linux) || os(macOS)): {line.strip()}")
    return found


SENDABLE_TYPE = re.compile(r"\b(?:class|struct|enum)\s+(\w+)[^{]*?:[^{]*\bSendable\b[^{]*\{")
PROCESS_PROPERTY = re.compile(r"\b(?:let|var)\s+(\w+)\s*:\s*(?:Foundation\.)?(?:Child)?Process\b\s*[?!]?\s*(?:$|=|\n)",
                              re.MULTILINE)


def sendable_processes(path, text):
    """Stored `Process` properties of types declared Sendable (directly in their body, not in a nested type)."""
    code, found = blank(text), []
    for declared in SENDABLE_TYPE.finditer(code):
        start, depth, position = declared.end(), 1, declared.end()
        members = []  # the type's own level: text at depth 1
        while position < len(code) and depth:
            char = code[position]
            if char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
            members.append(char if depth == 1 or char == "\n" else " ")
            position += 1
        body = "".join(members)
        for stored in PROCESS_PROPERTY.finditer(body):
            number = code.count("\n", 0, start + stored.start()) + 1
            found.append(f"{path}:{number}: {declared.group(1)} is Sendable and stores a Process ({stored.group(1)}):"
                         " Process is not known to be Sendable in every Apple SDK; hold it in a LockedBox")
    return found


def conditional_modules():
    """Each module Package.swift makes a dependency on some platforms only, with the public types it declares."""
    text = (ROOT / "Package.swift").read_text(encoding="utf-8")
    modules = set(re.findall(r"\.target\(\s*name:\s*\"(\w+)\",\s*condition:\s*\.when\(platforms:", text))
    declared = {}
    for module in sorted(modules):
        names = set()
        for path in (ROOT / "Sources" / module).rglob("*.swift"):
            names |= set(re.findall(r"^public\s+(?:final\s+)?(?:class|struct|enum|actor|protocol)\s+(\w+)",
                                    path.read_text(encoding="utf-8"), re.MULTILINE))
        declared[module] = names
    return declared


def outside_platform_conditions(lines):
    """(number, line) of each line of `lines` that is no #if directive and stands outside every #if whose condition,
    or an earlier branch's, names a platform (GUARD)."""
    stack = []  # one bool per open #if: whether its condition (or an earlier branch's) names a platform
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if stripped.startswith("#if "):
            stack.append(bool(GUARD.search(stripped)))
        elif stripped.startswith("#elseif "):
            stack[-1] = stack[-1] or bool(GUARD.search(stripped))
        elif stripped.startswith("#endif"):
            stack.pop()
        elif not stripped.startswith("#else") and not any(stack):
            yield number, line


def unimported_conditional_types(path, text, declared):
    """Public types of a platform-conditional module named, outside a platform condition, without its import."""
    found = []
    for number, line in outside_platform_conditions(blank(text).split("\n")):
        stripped = line.strip()
        if stripped.startswith(("import ", "@testable import ", "@_exported import ")):
            continue
        for module, names in declared.items():
            if module in path.parts or re.search(rf"^\s*(?:@\w+\s+)*import\s+{module}\b", text, re.MULTILINE):
                continue
            for name in sorted(names):
                if re.search(rf"\b{name}\b", line):
                    found.append(f"{path}:{number}: {name} comes from {module}, which Networking re-exports on some"
                                 f" platforms only (Package.swift): import {module} here, or the file does not"
                                 f" compile for iOS: {stripped}")
    return found


EXIT_TEST = re.compile(r"\bprocessExitsWith\s*:")
NEW_ENOUGH = re.compile(r"\bcompiler\(\s*>=\s*(?:6\.(?:[2-9]|\d\d)|[7-9])")
EXIT_PLATFORMS = re.compile(r"\bos\((?:macOS|Linux|Windows)\)|\bcanImport\(FoundationNetworking\)")
NO_EXIT_PLATFORMS = re.compile(r"\bos\((?:iOS|tvOS|watchOS|visionOS)\)|!")


def unguarded_exit_tests(path, text):
    """Exit tests outside a condition that both needs Swift 6.2 and names only platforms that have them."""
    found, branches = [], []  # the condition of each open #if's current branch; None in an #else
    for number, line in enumerate(blank(text).split("\n"), 1):
        stripped = line.strip()
        if stripped.startswith("#if "):
            branches.append(stripped[4:])
        elif stripped.startswith("#elseif "):
            branches[-1] = stripped[8:]
        elif stripped.startswith("#else"):
            branches[-1] = None
        elif stripped.startswith("#endif"):
            branches.pop()
        elif EXIT_TEST.search(line):
            conditions = [condition for condition in branches if condition]
            new_enough = any(NEW_ENOUGH.search(condition) for condition in conditions)
            platforms = any(EXIT_PLATFORMS.search(condition) and not NO_EXIT_PLATFORMS.search(condition)
                            for condition in conditions)
            if not (new_enough and platforms):
                found.append(f"{path}:{number}: an exit test outside #if compiler(>=6.2) && (os(macOS) || os(Linux) ||"
                             " os(Windows)): Swift Testing has none before 6.2, nor on iOS, tvOS, watchOS or"
                             f" visionOS: {stripped}")
    return found


def problems(path, text=None, modules=None, declared=None):
    text = path.read_text(encoding="utf-8") if text is None else text
    found = unexplained_regions(path, text.splitlines())
    found += own_module_imports(path, text, own_modules() if modules is None else modules)
    found += sendable_processes(path, text)
    found += unguarded_exit_tests(path, text)
    found += unimported_conditional_types(path, text, conditional_modules() if declared is None else declared)
    lines = text.splitlines()
    codes = [line.split("//", 1)[0] if not line.lstrip().startswith("///") else "" for line in lines]
    for number, code in outside_platform_conditions(codes):
        for pattern, name in PLATFORM_ONLY.items():
            if re.search(pattern, code):
                found.append(f"{path}:{number}: {name} outside an #if os(...) or canImport(...):"
                             f" {lines[number - 1].strip()}")
    return found


FIXTURES = {
    "Transports.swift": """
        #if canImport(NetworkingCurl)
            import NetworkingCurl
        #endif
        #if os(Linux) || os(macOS)
            import NetworkingCurl
        #endif
        #if canImport(FoundationNetworking)
            import FoundationNetworking
        #endif
        // canImport(NetworkingCore) in a comment is no condition.
        """,
    "Servers.swift": """
        final class Server: Sendable {
            private let process: ChildProcess
            private let box: LockedBox<ChildProcess>
            func helper() { let process: ChildProcess = ChildProcess() }
        }
        final class Plain {
            let process: Process
        }
        struct Handle: @unchecked Sendable, Equatable {
            var child: Process?
            struct Inner { let process: Process }
        }
        actor Holder { let process: Process }
        """,
    "ExitTests.swift": """
        #if compiler(>=6.2)
            @Test func a() async { await #expect(processExitsWith: .failure) {} }
        #endif
        #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
            @Test func b() async { await #expect(processExitsWith: .failure) {} }
        #else
            @Test func c() async { await #expect(processExitsWith: .failure) {} }
        #endif
        #if compiler(>=6.2)
            #if canImport(FoundationNetworking)
                @Test func d() async { await #expect(processExitsWith: .success) {} }
            #elseif os(macOS) || os(iOS)
                @Test func e() async { await #expect(processExitsWith: .success) {} }
            #endif
        #endif
        #if os(Linux)
            @Test func f() async { await #expect(processExitsWith: .success) {} }
        #endif
        // #expect(processExitsWith:) in a comment is no test.
        """,
    "Benchmark.swift": """
        import Networking
        let transport = try CurlTransport()
        #if os(Linux) || os(macOS)
            let guarded = try CurlTransport()
        #endif
        // CurlTransport in a comment is no use.
        """,
}
EXPECTED = {("Transports.swift", 1), ("Servers.swift", 2), ("Servers.swift", 10), ("ExitTests.swift", 2),
            ("ExitTests.swift", 7), ("ExitTests.swift", 13), ("ExitTests.swift", 17), ("Benchmark.swift", 2)}


def self_test():
    """The canImport and Process rules on FIXTURES: each expected finding and nothing else."""
    found = []
    for name, text in FIXTURES.items():
        found += problems(Path("Tests") / name, textwrap.dedent(text).lstrip("\n"), {"NetworkingCurl", "NetworkingCore"},
                          {"NetworkingCurl": {"CurlTransport"}})
    places = {(Path(line.split(":")[0]).name, int(line.split(":")[1])) for line in found}
    if places != EXPECTED:
        for line in found:
            print("  found:", line)
        print(f"portability_check --self-test: expected {sorted(EXPECTED)}, got {sorted(places)}", file=sys.stderr)
        return 1
    print(f"portability_check --self-test: {len(EXPECTED)} findings in the fixtures, as expected")
    return 0


def main(directories):
    status, directories = self_test_first(directories, self_test)
    if status is not None:
        return status
    found = []
    files = 0
    modules = own_modules()
    declared = conditional_modules()
    for directory in directories:
        for path in sorted(Path(directory).rglob("*.swift")):
            if path.name == "ChildProcess.swift":
                continue  # the one place that names Process, guarded by os(macOS) || os(Linux)
            files += 1
            found += problems(path, modules=modules, declared=declared)
    for line in found:
        print(line)
    if found:
        print(f"portability_check: {len(found)} problems: platform-only names outside a platform condition,"
              " unexplained platform regions, canImport of our own modules, Process in Sendable types, unguarded"
              " exit tests, types of a platform-conditional module used without its import",
              file=sys.stderr)
        return 1
    print(f"portability_check: {files} Swift files: platform-only names inside platform conditions, each library"
          " region noting what it was checked against, no canImport of our own modules, no Process stored in a"
          " Sendable type, exit tests only where Swift Testing has them, NetworkingCurl's types imported where used")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["Sources", "Tests"]))
