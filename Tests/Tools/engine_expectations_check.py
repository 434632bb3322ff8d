#!/usr/bin/env python3
"""Fails when a real-server test expects a failure code only one HTTP engine reports, without saying so (make
portability).

The real-server suite was written on Linux, where both transports run on libcurl; on a Mac the URLSession
transport runs on Apple's loader, which names a lost connection, a garbled answer or a refused handshake itself. So
an expectation of a code the engine chooses (`.transport(.connectionLost)`, `.badServerResponse`, `.other`,
`.secureConnectionFailed`, `.cannotConnect`, a `secureConnectionFailure`, a `urlErrorCode`) must either go through
`TestEngine` (`TestEngine.onLibcurl(exactly, elseAtLeast:)`: libcurl's behaviour exactly, the weaker promise on
Apple's loader), or say in a comment just above it, or at the end of its line, why every engine reports it
("every engine: Apple reports -1004 for a refused port too"), or that the check runs on libcurl alone ("libcurl
only", inside an `if TestTransport.current == .curl`). The libcurl-only suites (Curl*.swift, such as
Transport/CurlTransportTests.swift) are left out: they run on libcurl everywhere. `--self-test` runs the rule on
fixtures with known findings.

Usage: engine_expectations_check.py [--self-test] DIR...
"""
import re
import sys
import textwrap
from pathlib import Path

from availability_check import blank, self_test_first

ENGINE_CODE = re.compile(
    r"\.transport\(\.(?:connectionLost|badServerResponse|other|secureConnectionFailed|cannotConnect)\)"
    r"|\.transport\(\s*[a-z]\w*\s*\)"  # a code in a variable: a parameterized test's argument
    r"|secureConnectionFailure\s*==|urlErrorCode")
STATEMENT = re.compile(r"#(?:expect|require)\s*\(")
SAID = re.compile(r"every engine|libcurl only", re.IGNORECASE)


def statement_around(code, position):
    """(start, end) of the #expect/#require call holding `position`, or of its line when there is none."""
    starts = [m.start() for m in STATEMENT.finditer(code, 0, position + 1)]
    for start in reversed(starts):
        depth, index = 0, code.index("(", start)
        while index < len(code):
            depth += {"(": 1, ")": -1}.get(code[index], 0)
            if depth == 0:
                break
            index += 1
        if index >= position:
            return start, index
    line_start = code.rfind("\n", 0, position) + 1
    return line_start, code.find("\n", position)


def code_offset(code, line_index):
    """The offset in `code` where line `line_index` (0-based) starts."""
    offset = 0
    for _ in range(line_index):
        offset = code.index("\n", offset) + 1
    return offset


def unstated(path, text):
    """Expectations of an engine's code in `text` that neither go through TestEngine nor say why any engine."""
    code, lines, found = blank(text), text.split("\n"), []
    for match in ENGINE_CODE.finditer(code):
        start, end = statement_around(code, match.start())
        if "TestEngine." in code[start:end]:
            continue
        first = code.count("\n", 0, start)
        last = code.count("\n", 0, end)
        said = any(SAID.search(line) for line in lines[first:last + 1])
        # The comment just above a run of expectations covers the run: walk up over the run's other statements to
        # the first comment block, and read that block alone.
        above = first - 1
        while not said and above >= 0:
            text = lines[above].strip()
            if text.startswith("//"):
                while above >= 0 and lines[above].strip().startswith("//") and not said:
                    said = bool(SAID.search(lines[above]))
                    above -= 1
                break
            if not text or not (text.startswith(("#expect", "#require")) or STATEMENT.search(
                    code[statement_around(code, code_offset(code, above))[0]:code_offset(code, above + 1)])):
                break
            above -= 1
        if not said:
            number = code.count("\n", 0, match.start()) + 1
            found.append(f"{path}:{number}: an engine's code expected without TestEngine.onLibcurl or an"
                         f" 'every engine' comment: {lines[number - 1].strip()}")
    return sorted(set(found), key=lambda line: int(line.split(":")[1]))


FIXTURE = """
    @Test func a() async throws {
        #expect(error?.kind == .transport(.connectionLost))
        #expect(
            TestEngine.onLibcurl(
                error?.kind == .transport(.badServerResponse), elseAtLeast: Faults.transportCode(error) != nil))
        // every engine: a refused port is -1004 on Apple platforms too.
        #expect(error?.kind == .transport(.cannotConnect))
        #expect(error?.kind == .transport(.other))  // every engine: our own check of the lengths
        #expect(error?.kind == .transport(.responseTooLarge))
        // The server closed it.
        #expect(
            error?.transportError?.secureConnectionFailure == .handshake, "got \\(error)")
        let message = "transport(.other) in a string is no expectation"
        // every engine: the policy's own refusal.
        #expect(error?.kind == .transport(.secureConnectionFailed))
        #expect(error?.transportError?.secureConnectionFailure == .certificate)
        let attempts = 1
        #expect(error?.kind == .transport(code))
    }
    """


def self_test():
    found = unstated(Path("Fixture.swift"), textwrap.dedent(FIXTURE).lstrip("\n"))
    lines = [int(line.split(":")[1]) for line in found]
    if lines != [2, 12, 18]:
        for line in found:
            print("  found:", line)
        print(f"engine_expectations_check --self-test: expected lines [2, 12, 18], got {lines}", file=sys.stderr)
        return 1
    print("engine_expectations_check --self-test: 3 findings in the fixture, as expected")
    return 0


def main(arguments):
    status, arguments = self_test_first(arguments, self_test)
    if status is not None:
        return status
    found, files = [], 0
    for directory in arguments or ["Tests/NetworkingRealServerTests"]:
        for path in sorted(Path(directory).rglob("*.swift")):
            if path.name.startswith("Curl"):
                continue  # libcurl-only suites (Transport/Curl*.swift, WebSocket/Curl*.swift)
            files += 1
            found += unstated(path, path.read_text(encoding="utf-8"))
    for line in found:
        print(line)
    if found:
        print(f"engine_expectations_check: {len(found)} expectations of an engine's failure code that do not say"
              " which engine (TestEngine.onLibcurl) or why every engine reports it", file=sys.stderr)
        return 1
    print(f"engine_expectations_check: {files} real-server test files: every expectation of an engine's failure code"
          " says whose it is")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
