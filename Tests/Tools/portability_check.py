#!/usr/bin/env python3
"""Fails when a Swift file names a platform-only API outside a platform condition (make portability).

Linux is where this package is built every day; a Mac or an iPhone is not. What only one platform has must sit in
an `#if os(...)` or `#if canImport(...)` region, or the Apple build breaks on a line nobody here compiled. Each
occurrence below, outside comments, must be inside such a region (either branch: the `#else` of `os(macOS)` is
platform code too). And each platform region of the library (not the demo, benchmarks or fuzzer) that holds more
than imports says, in a `//` comment just above it, the Apple documentation it was checked against ("Apple docs
checked", a developer.apple.com page, or "as above" for the same check again). Usage: portability_check.py DIR...
"""
import re
import sys
from pathlib import Path

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


def problems(path):
    found = unexplained_regions(path, path.read_text(encoding="utf-8").splitlines())
    stack = []  # one bool per open #if: whether its condition (or an earlier branch's) names a platform
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        code = line.split("//", 1)[0] if not line.lstrip().startswith("///") else ""
        stripped = code.strip()
        if stripped.startswith("#if "):
            stack.append(bool(GUARD.search(stripped)))
            continue
        if stripped.startswith("#elseif "):
            stack[-1] = stack[-1] or bool(GUARD.search(stripped))
            continue
        if stripped.startswith("#else"):
            continue
        if stripped.startswith("#endif"):
            stack.pop()
            continue
        if any(stack):
            continue
        for pattern, name in PLATFORM_ONLY.items():
            if re.search(pattern, code):
                found.append(f"{path}:{number}: {name} outside an #if os(...) or canImport(...): {line.strip()}")
    return found


def main(directories):
    found = []
    files = 0
    for directory in directories:
        for path in sorted(Path(directory).rglob("*.swift")):
            if path.name == "ChildProcess.swift":
                continue  # the one place that names Process, guarded by os(macOS) || os(Linux)
            files += 1
            found += problems(path)
    for line in found:
        print(line)
    if found:
        print(f"portability_check: {len(found)} platform-only names outside a platform condition", file=sys.stderr)
        return 1
    print(f"portability_check: {files} Swift files: platform-only names inside platform conditions, each library region noting what it was checked against")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["Sources", "Tests"]))
