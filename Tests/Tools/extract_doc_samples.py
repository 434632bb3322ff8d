#!/usr/bin/env python3
"""Writes DocCommentSamples.swift: every ```swift block of a `///` doc comment under Sources/ (the library
targets), each in a function of its own, so the compiler checks every sample a user reads in Quick Help or the
documentation. `make doc-samples` runs it; DocCommentSamplesTests fails when a block is missing from the file.

A block whose first line is `// Fragment` is shown as it is and not compiled (say why on that line).

A sample of a declaration that needs a newer OS than the package's minimum (`@available(macOS 15.0, …)` on the
declaration or on the type or extension holding it) gets the same `@available` on its function: Linux never checks
availability, Apple's compilers do (make portability's availability check fails on a sample without it)."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SKIP = ("Sources/Benchmarks/", "Sources/Demo/")


def blocks():
    for folder, _, files in sorted(os.walk(os.path.join(ROOT, "Sources"))):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, ROOT)
            if relative.startswith(SKIP):
                continue
            lines = open(path, encoding="utf-8").read().split("\n")
            inside, current, start = False, [], 0
            for number, line in enumerate(lines, 1):
                text = line.strip()
                if not text.startswith("///"):
                    inside, current = False, []
                    continue
                body = text[3:]
                if body.startswith(" "):
                    body = body[1:]
                if not inside and body.strip() == "```swift":
                    inside, current, start = True, [], number
                elif inside and body.strip() == "```":
                    inside = False
                    if current and not current[0].startswith("// Fragment"):
                        yield relative, start, current, availability(lines, number)
                elif inside:
                    current.append(body)


AVAILABLE = re.compile(r"^\s*(@available\((?:macOS|iOS|tvOS|watchOS|visionOS) [^)]*\))")


def availability(lines, number):
    """The `@available(<platform> <version>, …)` attributes of the declaration the doc comment ending after line
    `number` (1-based) documents, and of each type or extension around it (found by indentation), outermost
    first."""
    index = number
    while index < len(lines) and lines[index].strip().startswith("///"):
        index += 1
    found = []
    while index < len(lines) and lines[index].strip().startswith("@"):
        match = AVAILABLE.match(lines[index])
        if match:
            found.append(match.group(1))
        index += 1
    if index >= len(lines):
        return found
    indent = len(lines[index]) - len(lines[index].lstrip())
    for above in range(number - 1, -1, -1) if indent else ():
        text = lines[above]
        if not text.strip() or text.strip().startswith("//") or len(text) - len(text.lstrip()) >= indent:
            continue
        indent = len(text) - len(text.lstrip())
        attribute = above - 1
        while attribute >= 0 and lines[attribute].strip().startswith("@"):
            match = AVAILABLE.match(lines[attribute])
            if match:
                found.insert(0, match.group(1))
            attribute -= 1
        if indent == 0:
            break
    return found


KEYWORDS = ("let ", "var ", "for ", "if ", "guard ", "do ", "do{", "}", "struct ", "enum ", "final ", "class ",
            "func ", "extension ", "return", "switch ", "case ", "default", "#", "//", "_ =", "print(", "await ", "try await ",
            "@", "typealias ")
DECLARATION = re.compile(r"^(?:let|var) (?:\(([\w, ]+)\)|(\w+))(?: *:[^=]*)? *=")


def uses(lines):
    """The sample as compiled: a value it only shows (`cookie?.name  // "sid"`) is bound to `let _`, and each name
    it declares at its top level is used once at the end (`let _ = name`), so the compiler has nothing to warn about.
    DocCommentSamplesTests reads through both, and no sample is written with `let _ =`."""
    body, names = [], []
    for index, line in enumerate(lines):
        following = lines[index + 1] if index + 1 < len(lines) else ""
        declared = DECLARATION.match(line)
        if declared:
            names.extend(n.strip() for n in (declared.group(1) or declared.group(2)).split(",") if n.strip())
        complete = line.count("(") == line.count(")") and line.count("[") == line.count("]") \
            and not line.rstrip().endswith(("{", ",", "(")) and not following.startswith((" ", ".", ")"))
        shown = line and not line.startswith(KEYWORDS) and not line[0].isspace() and " = " not in line.split("//")[0] \
            and complete and not line.split("//")[0].rstrip().endswith("}")
        asynchronous = re.match(r"^async let (\w+) =", line)
        if asynchronous:
            names.append("try await " + asynchronous.group(1))
        # A value the sample only shows says what it is in a comment (`cookie?.name  // "sid"`); a call whose
        # answer the sample ignores is a send.
        if shown and "//" in line or line.startswith("try await client.send(") and complete:
            line = "let _ = " + line
        body.append(line)
    return body, [n for n in names if n != "_"]


def main():
    out = ["// swift-format-ignore-file",
           "// Generated by Tests/Tools/extract_doc_samples.py (make doc-samples) from the doc comments of Sources/: do not edit.",
           "// Each sample is compiled in a function of its own, over the declarations of DocCommentContext.swift.",
           "import Foundation",
           "import Networking",
           "import NetworkingTesting",
           "import NetworkingCurl",
           "import Testing",
           "",
           "#if canImport(FoundationNetworking)",
           "    import FoundationNetworking",
           "#endif",
           ""]
    count = 0
    for relative, start, lines, attributes in blocks():
        count += 1
        symbol = re.sub(r"[^A-Za-z0-9]", "_", os.path.splitext(os.path.basename(relative))[0])
        out.append(f"// {relative}:{start}")
        out.extend(attributes)
        out.append(f"@Sendable func docSample{count}_{symbol}() async throws {{")
        body, names = uses(lines)
        out.extend(("    " + line).rstrip() for line in body)
        out.extend(f"    let _ = {name}" for name in names)
        out.append("}")
        out.append("")
    target = os.path.join(ROOT, "Tests", "NetworkingDocumentationTests", "DocComments", "DocCommentSamples.swift")
    with open(target, "w", encoding="utf-8") as f:
        f.write("\n".join(out))
    print(f"{count} doc-comment samples written to {os.path.relpath(target, ROOT)}")


if __name__ == "__main__":
    sys.exit(main())
