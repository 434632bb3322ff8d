#!/usr/bin/env python3
"""make lint: the parsers of network bytes cut and compare octets, never Characters.

Swift compares Characters by canonical equivalence: "\\u{37E}" == ";" (GREEK QUESTION MARK), "\\u{212A}" == "K"
(KELVIN SIGN) and "\\u{212A}".lowercased() == "k"; a delimiter followed by a combining mark is one Character with it,
and Foundation's .whitespaces holds Unicode spaces. A peer cuts at the byte (RFC 9110 §5.6), so every file below
reads field values through FieldSyntax (NetworkingHTTP), `utf8` and `UInt8(ascii:)`. This check fails on the String
and Character operations that split, search, trim or fold case in those files; `make fuzz` found what one of them
did (the set-cookie harness took U+037E for ';').

    Tests/Tools/octet_check.py [ROOT]

A line the check must let through says why in a comment holding `octets:` (none does today).
"""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# The readers of bytes a peer or a recorded file controls: files, or folders taken whole.
PARSERS = [
    "Sources/NetworkingHTTP/Rules",
    "Sources/NetworkingHTTP/HTTP/HTTPField.swift",
    "Sources/NetworkingHTTP/HTTP/SetCookieFieldSplitter.swift",
    "Sources/NetworkingHTTP/Internal/OptionalWhitespace.swift",
    "Sources/NetworkingCore/Errors/Redaction.swift",
    "Sources/NetworkingCore/Requests/ResponseDecoding.swift",
    "Sources/NetworkingCookies/Cookies",
    "Sources/NetworkingHTTPCache/Rules",
    "Sources/NetworkingHTTPCache/HTTPCache",
    "Sources/NetworkingTransfers/Rules",
    "Sources/NetworkingTransfers/Streaming",
    "Sources/NetworkingCurl/Engine/CurlHeadParser.swift",
    "Sources/NetworkingCurl/Engine/CurlTransfer.swift",
    "Sources/NetworkingResilience/Retry/RetryAfter.swift",
    "Sources/NetworkingFixtures/Fixtures/FixtureTransport+Validators.swift",
    "Sources/NetworkingFixtures/Fixtures/FixtureTransport+Manifest.swift",
    "Sources/NetworkingFixtures/Recording/RecordingTransport+Record.swift",
    "Sources/NetworkingFixtures/Recording/Scrubber.swift",
    "Sources/NetworkingFixtures/Recording/RecordKey.swift",
    "Sources/Fuzz",
]

# What reads Characters where a peer reads bytes. A byte search passes a byte (`UInt8(ascii: ";")`, `0x3B`), never
# a string or character literal, so the literal argument is what tells the two apart.
RULES = [
    (re.compile(r'\.split\(separator:\s*"'), "split(separator:) on a Character: FieldSyntax.split(_:separator:)"),
    (re.compile(r'\.(first|last)Index\(of:\s*"'), "firstIndex(of:) a Character: text.utf8.firstIndex(of:)"),
    # One character only: `fields.contains("ETag")` asks for a field by name.
    (re.compile(r'\.contains\("(\\.|[^"\\])"\)'), "contains(\";\") on Characters: text.utf8.contains(UInt8(ascii:))"),
    (re.compile(r'\.(hasPrefix|hasSuffix)\('), "hasPrefix/hasSuffix on Characters: utf8.starts(with:) or "
                                              "FieldSyntax.hasPrefixIgnoringCase"),
    (re.compile(r'[=!]=\s*"(\\.|[^"\\])"'), "a comparison with a one-character literal compares Characters: "
                                               "compare a byte with UInt8(ascii:)"),
    (re.compile(r'components\(separatedBy:'), "components(separatedBy:): FieldSyntax.split(_:separator:)"),
    (re.compile(r'\.(lowercased|uppercased)\(\)'), "Unicode case folding (U+212A becomes k): "
                                                  "HTTPToken.lowercasedASCII or FieldSyntax.token"),
    (re.compile(r'trimmingCharacters\(in:'), "trimmingCharacters(in:) trims Unicode spaces: FieldSyntax.trimmed"),
    (re.compile(r'\.range\(of:\s*"'), "range(of:) on Characters: search the bytes"),
    (re.compile(r'caseInsensitiveCompare|localizedCaseInsensitive'), "Unicode case-insensitive comparison: "
                                                                     "FieldSyntax.equalsIgnoringCase"),
]


def files():
    for entry in PARSERS:
        path = os.path.join(ROOT, entry)
        if os.path.isdir(path):
            for folder, _, names in os.walk(path):
                for name in sorted(names):
                    if name.endswith(".swift"):
                        yield os.path.join(folder, name)
        elif os.path.isfile(path):
            yield path
        else:
            yield from ()
            print(f"octet check: {entry} does not exist (update Tests/Tools/octet_check.py)", file=sys.stderr)
            sys.exit(1)


def main():
    problems = 0
    for path in files():
        with open(path, encoding="utf-8") as file:
            for number, line in enumerate(file, 1):
                code = line.split("//", 1)[0] if not line.lstrip().startswith("//") else ""
                if "octets:" in line or not code.strip():
                    continue
                for pattern, advice in RULES:
                    if pattern.search(code):
                        problems += 1
                        print(f"{os.path.relpath(path, ROOT)}:{number}: {advice}\n    {line.strip()}")
    if problems:
        print(f"octet check: {problems} String/Character delimiter operation(s) in parsers of network bytes",
              file=sys.stderr)
        sys.exit(1)
    print("octet check: every parser of network bytes cuts and compares octets")


if __name__ == "__main__":
    main()
