#!/usr/bin/env python3
"""Compiles every ```swift block of README.md, Plugins.md and the DocC articles ALONE: each block is written to a
file of its own, as a user would paste it, and type-checked in a module of its own against the package's built
modules, with only the imports it shows. A block that uses a name it neither declares nor imports (a type of
another sample, a module it forgot to import) fails here, though it compiles inside the test files that hold the
samples in context (EverySampleIsCompiledTests).

`make lint` runs it after building the library products. Two markers, on a block's first line, say what a block
is when it is not a file of its own:
- `// Fragment: why`: a piece of a larger program (a call on a client the page set up), compiled in context only
  (by the test files), skipped here;
- `// Continues the sample above: ...`: a second file beside the page's previous sample, such as a test of the app
  that sample is (a test target importing the app): compiled with it, in one module, each file with its own imports;
  `// Continues Name above: ...` does the same with the nearest sample above that declares `Name`.

    compile_doc_snippets.py [--bin-path DIR] [--jobs N] [DOCUMENT ...]

How a block is compiled:
- with declarations only, as a library file (`-parse-as-library`), the way a file of an app or a test target is;
  with statements at its top level (`let x = try await ...`, `print(x)`, a `var`, which Swift 6 allows at the top
  level of a program's `main.swift` only), as the `main.swift` of a program;
- `Bundle.module` is what SwiftPM writes into a target with resources, so a block that reads it is compiled with a
  stand-in for that accessor (the samples say the target declares `resources: [.copy("Fixtures")]`);
- warnings are not reported: a sample may show a value it does not use.

Two blocks compile at a time (this machine has two cores); about a second each."""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ARTICLES = os.path.join("Sources", "Networking", "Networking.docc")
FRAGMENT = "// Fragment"
CONTINUES = "// Continues"
# What starts a declaration at the top level of a file; any other top-level line is a statement.
DECLARATION = re.compile(
    r"^(?:import|struct|enum|class|final|actor|protocol|extension|func|typealias|let|var|private|fileprivate|"
    r"internal|public|package|nonisolated|@|#if|#else|#elseif|#endif|//|/\*|\*|\}|\)|\])")
BUNDLE_ACCESSOR = """import Foundation

// What SwiftPM writes into a target that declares resources (resource_bundle_accessor.swift): the samples that
// read Bundle.module say that their target declares them.
extension Foundation.Bundle {
    static let module = Bundle.main
}
"""


def documents():
    names = ["README.md", "Plugins.md"]
    folder = os.path.join(ROOT, ARTICLES)
    names += [os.path.join(ARTICLES, name) for name in sorted(os.listdir(folder)) if name.endswith(".md")]
    return names


def blocks(document):
    """Every ```swift block of `document`: (line of its first line, its lines)."""
    lines = open(os.path.join(ROOT, document), encoding="utf-8").read().split("\n")
    inside, current, start = False, [], 0
    for number, line in enumerate(lines, 1):
        if not inside and line.strip() == "```swift":
            inside, current, start = True, [], number + 1
        elif inside and line.strip() == "```":
            inside = False
            yield start, current
        elif inside:
            current.append(line)


def depth_changes(line):
    """How much `line` opens brackets by, outside string literals and after a `//` comment is cut off."""
    depth, quoted, index = 0, False, 0
    while index < len(line):
        char = line[index]
        if quoted:
            if char == "\\":
                index += 1
            elif char == '"':
                quoted = False
        elif char == '"':
            quoted = True
        elif line.startswith("//", index):
            break
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        index += 1
    return depth


def has_top_level_statements(lines):
    """Whether a top-level line of the block is a statement (so it compiles as a program's main.swift only)."""
    depth = 0
    statement = ""
    for line in lines:
        text = line.strip()
        if depth == 0 and text and not text.startswith("."):
            statement = text
            if not DECLARATION.match(text):
                return True
        # A top-level `let x = try await f()` is a statement too (a global's initial value cannot await), and so is a
        # top-level `var` (a global variable is not concurrency-safe in Swift 6, a program's top-level one is).
        if depth == 0 and text.startswith("var "):
            return True
        if depth == 0 and statement.startswith(("let ", "var ")) and re.search(r"\b(try|await)\b", text):
            return True
        depth += depth_changes(line)
    return False


def name_of(document, line):
    stem = os.path.splitext(os.path.basename(document))[0]
    return f"{stem}-{line}"


def compile_one(job):
    document, line, lines, base, bin_path, scratch = job
    folder = os.path.join(scratch, name_of(document, line))
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    program = has_top_level_statements(lines)
    main = os.path.join(folder, "main.swift" if program else "Sample.swift")
    with open(main, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    files = [main]
    if base is not None:
        # The sample this one continues, a file of the same module (a program's statements live in one of them).
        program = program or has_top_level_statements(base)
        before = os.path.join(folder, "main.swift" if program and not files[0].endswith("main.swift") else "Base.swift")
        with open(before, "w", encoding="utf-8") as f:
            f.write("\n".join(base) + "\n")
        files.append(before)
        lines = lines + base
    if any("Bundle.module" in text for text in lines):
        accessor = os.path.join(folder, "resource_bundle_accessor.swift")
        with open(accessor, "w", encoding="utf-8") as f:
            f.write(BUNDLE_ACCESSOR)
        files.append(accessor)
    command = [os.environ.get("SWIFTC", "swiftc"), "-typecheck", "-swift-version", "6", "-suppress-warnings",
               "-module-name", "Sample", "-I", os.path.join(bin_path, "Modules"),
               # The libcurl transport imports the package's own C module, whose module map SwiftPM writes.
               "-Xcc", "-fmodule-map-file=" + os.path.join(bin_path, "CCurlShim.build", "module.modulemap")]
    if not program:
        command.append("-parse-as-library")
    result = subprocess.run(command + files, capture_output=True, text=True, cwd=folder)
    output = (result.stdout + result.stderr).replace(main, f"{document}:{line}+")
    return document, line, result.returncode == 0, output


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin-path", default=os.path.join(ROOT, ".build", "debug"),
                        help="the build's bin path, holding Modules/ (swift build --show-bin-path)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("documents", nargs="*", help="documents relative to the package root; all by default")
    arguments = parser.parse_args()
    bin_path = os.path.abspath(arguments.bin_path)
    if not os.path.exists(os.path.join(bin_path, "Modules", "Networking.swiftmodule")):
        sys.exit(f"compile_doc_snippets: no Networking module in {bin_path}/Modules (run swift build first)")
    scratch = os.path.join(ROOT, ".build", "doc-snippets")
    jobs, fragments = [], 0
    for document in arguments.documents or documents():
        bases = []
        for line, lines in blocks(document):
            first = lines[0].strip() if lines else ""
            if first.startswith(FRAGMENT):
                fragments += 1
            elif first.startswith(CONTINUES):
                named = re.match(r"// Continues (\w+) above", first)
                declares = re.compile(rf"\b(?:struct|enum|class|actor|protocol|func|let|var) {named.group(1)}\b") \
                    if named else None
                base = next((b for b in reversed(bases) if declares is None or any(map(declares.search, b))), None)
                if base is None:
                    sys.exit(f"compile_doc_snippets: {document}:{line}: no sample above it for \"{first}\"")
                jobs.append((document, line, lines, base, bin_path, scratch))
            else:
                jobs.append((document, line, lines, None, bin_path, scratch))
                bases.append(lines)
    failures = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(arguments.jobs, 1)) as pool:
        for document, line, passed, output in pool.map(compile_one, jobs):
            if not passed:
                failures.append(f"{document}:{line}: this sample does not compile alone:\n{output}")
    for failure in failures:
        print(failure, file=sys.stderr)
    print(f"compile_doc_snippets: {len(jobs) - len(failures)} of {len(jobs)} samples compile alone "
          f"({fragments} fragments compiled in context only)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
