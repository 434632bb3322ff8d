#!/usr/bin/env python3
"""Fails when a declaration needing a newer Apple OS than the package's minimum is used where that OS is not
known to be there (make portability).

Linux never checks availability, so a call to `CurlTransport.executor` (macOS 15) from a function a macOS 13 app
may run compiles here and breaks every Apple build. This reads the minimums from Package.swift's `platforms:`, finds
each of our declarations marked `@available(macOS N …)` (iOS, tvOS, watchOS, visionOS too) above them, adds a few
of the standard library's (KNOWN below, from Apple's documentation), and checks every use in the given folders.

A use is in context when, for each platform the declaration restricts, one of these says at least that version:
  - an `@available(...)` on an enclosing declaration (function, type, extension, property, closure-free
    statement), or on the declaration the use is part of;
  - the body of an `if … #available(...) … {` (not its `else`), a `while` likewise;
  - the rest of a scope after `guard … #available(...) … else { … }`;
  - an `#if os(Linux)` branch (Linux has no availability).
It is a heuristic over the text, not a compiler: comments and string literals are blanked first; a member of a
type or extension is matched where it is written `.name` (or, for a function, a bare `name(` in a file of the same
type), a top-level name wherever it appears. It errs towards reporting: silence one finding only by adding the
annotation the compiler would want. `--self-test` runs it on small fixtures with known answers.

Usage: availability_check.py [--self-test] DIR...
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PLATFORMS = ("macOS", "iOS", "tvOS", "watchOS", "visionOS", "macCatalyst")

# Standard-library names above this package's minimums, with the versions Apple's documentation gives
# (developer.apple.com/documentation/swift/...: withtaskexecutorpreference(_:isolation:operation:), taskexecutor,
# task/init(executorpreference:priority:operation:), globalconcurrentexecutor, synchronization/mutex,
# synchronization/atomic, withdiscardingtaskgroup(returning:isolation:body:), task/immediate(...)).
SWIFT_6 = {"macOS": (15,), "iOS": (18,), "tvOS": (18,), "watchOS": (11,), "visionOS": (2,)}
SWIFT_5_9 = {"macOS": (14,), "iOS": (17,), "tvOS": (17,), "watchOS": (10,)}
SWIFT_6_2 = {"macOS": (26,), "iOS": (26,), "tvOS": (26,), "watchOS": (26,), "visionOS": (26,)}
KNOWN = {
    r"\bwithTaskExecutorPreference\b": ("withTaskExecutorPreference", SWIFT_6),
    r"\bTaskExecutor\b": ("TaskExecutor", SWIFT_6),
    r"\bexecutorPreference\s*:": ("Task(executorPreference:)", SWIFT_6),
    r"\bglobalConcurrentExecutor\b": ("globalConcurrentExecutor", SWIFT_6),
    r"\basUnownedTaskExecutor\b": ("asUnownedTaskExecutor", SWIFT_6),
    r"\bMutex\s*<": ("Mutex", SWIFT_6),
    r"\bAtomic\s*<": ("Atomic", SWIFT_6),
    r"\bwith(?:Throwing)?DiscardingTaskGroup\b": ("withDiscardingTaskGroup", SWIFT_5_9),
    r"\bTask\.immediate\b": ("Task.immediate", SWIFT_6_2),
}

DECLARATION = re.compile(
    r"(?:(?:@\w+(?:\([^()]*(?:\([^()]*\)[^()]*)*\))?|public|package|internal|private|fileprivate|open|final|static"
    r"|class(?=\s+(?:func|var|let))|override|nonisolated|mutating|nonmutating|convenience|required|lazy|indirect"
    r"|weak|unowned|dynamic|consuming|borrowing)\s+)*"
    r"(func|var|let|class|struct|enum|protocol|actor|typealias|extension|init|subscript|case)\b\s*([A-Za-z_]\w*)?")
AVAILABLE = re.compile(r"@available\s*\(([^()]*)\)")
CHECK = re.compile(r"#available\s*\(([^()]*)\)")
VERSIONED = re.compile(r"^\s*(\w+)\s+(\d+(?:\.\d+)*)\s*$")
CONTINUATION_START = re.compile(r"^\s*(?:\.|->|where\b|throws\b|rethrows\b|async\b|&&|\|\||,|\)|\]|\?|:|=|\+|-(?!>)|\*)")
CONTINUATION_END = re.compile(r"(?:,|\(|\[|=|&&|\|\||->|\+|-|\*|\bin|\belse|\bguard|\bif|\bwhile)\s*$")


def version(text):
    """`15.0` as (15,): trailing zeros dropped, so 13.0 and 13 compare equal."""
    numbers = [int(n) for n in re.split(r"[._]", text)]
    while len(numbers) > 1 and numbers[-1] == 0:
        numbers.pop()
    return tuple(numbers)


def versions(arguments):
    """{platform: version} of an `@available`/`#available` argument list (`*` and words ignored)."""
    found = {}
    for part in arguments.split(","):
        match = VERSIONED.match(part)
        if match and match.group(1) in PLATFORMS:
            found[match.group(1)] = version(match.group(2))
    return found


def merged(outer, inner):
    result = dict(outer)
    for platform, version in inner.items():
        result[platform] = max(result.get(platform, ()), version)
    return result


def minimums(package_text):
    """The package's minimum version per platform, from `platforms: [.macOS(.v13), .iOS("16.0"), …]`."""
    found = {}
    for name, dotted, quoted in re.findall(r"\.(\w+)\(\s*(?:\.v(\d+(?:_\d+)*)|\"([\d.]+)\")\s*\)", package_text):
        if name in PLATFORMS:
            found[name] = version(dotted or quoted)
    return found


def blank(text):
    """`text` with comments and string literals (interpolations included) turned into spaces, newlines kept, so
    positions and line numbers stay those of the file."""
    out = list(text)
    i, n = 0, len(text)

    def wipe(start, end):
        for k in range(start, end):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            wipe(i, end)
            i = end
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            wipe(i, j)
            i = j
        elif text[i] == '"' or (text[i] == "#" and re.match(r'#+"', text[i:])):
            hashes = len(re.match(r"#*", text[i:]).group(0))
            j = i + hashes
            triple = text.startswith('"""', j)
            closing = ('"""' if triple else '"') + "#" * hashes
            j += 3 if triple else 1
            while j < n and not text.startswith(closing, j):
                if text[j] == "\\" and not hashes:
                    j += 1
                elif not triple and text[j] == "\n":
                    break
                j += 1
            j = min(n, j + len(closing))
            wipe(i, j)
            i = j
        else:
            i += 1
    return "".join(out)


def linux_only_lines(code):
    """Line numbers (1-based) inside an `#if os(Linux)` branch, where availability is never checked."""
    lines, stack = set(), []  # per open #if: whether the branch we are in is Linux-only
    for number, line in enumerate(code.split("\n"), 1):
        stripped = line.strip()
        if stripped.startswith("#if "):
            condition = stripped[4:]
            stack.append("os(Linux)" in condition and "||" not in condition and "!os(Linux)" not in condition)
        elif stripped.startswith("#elseif") or stripped.startswith("#else"):
            if stack:
                stack[-1] = False
        elif stripped.startswith("#endif"):
            if stack:
                stack.pop()
        elif any(stack):
            lines.add(number)
    return lines


def boundaries(code):
    """Indices where a statement ends: `{`, `}`, `;`, or a newline at bracket depth 0 that neither the line before
    nor the line after continues (an attribute line, a trailing comma or operator, a leading `.` or `->`)."""
    ends, depth = set(), 0
    lines = code.split("\n")
    offset = 0
    for index, line in enumerate(lines):
        for k, char in enumerate(line):
            if char in "([":
                depth += 1
            elif char in ")]":
                depth = max(0, depth - 1)
            elif char in "{};":
                ends.add(offset + k)
        following = next((later for later in lines[index + 1:] if later.strip()), "")
        text = line.strip()
        attribute_only = bool(re.fullmatch(r"(?:@\w+(?:\(.*\))?\s*)+", text))
        if depth == 0 and not attribute_only and not CONTINUATION_END.search(text) \
                and not CONTINUATION_START.match(following):
            ends.add(offset + len(line))
        offset += len(line) + 1
    return ends


class Scopes:
    """One pass over a blanked file: the availability that holds at each position, from braces and their headers."""

    def __init__(self, code):
        self.code = code
        self.ends = sorted(boundaries(code))
        self.linux = linux_only_lines(code)
        self.context = []  # (position, versions): the availability from `position` on, until the next entry
        self.declarations = []  # (position, kind, name, versions of its own, whether inside a type, type name)
        self.walk()

    def header(self, position):
        """The statement text before `position`: from the last boundary before it."""
        start = 0
        for end in self.ends:
            if end >= position:
                break
            start = end + 1
        return self.code[start:position]

    def walk(self):
        # Each open brace: [versions inside, versions the enclosing scope gains when it closes, type name or None].
        stack = [[{}, None, None]]
        self.context.append((0, {}, None))
        pending = []  # each @available with versions: (start, end of the attribute, versions)
        for match in AVAILABLE.finditer(self.code):
            found = versions(match.group(1))
            if found:
                pending.append((match.start(), match.end(), found))
        for position, char in enumerate(self.code):
            if char == "{":
                header = self.header(position)
                own, after = {}, None
                for attribute in AVAILABLE.finditer(header):
                    own = merged(own, versions(attribute.group(1)))
                checks = {}
                for check in CHECK.finditer(header):
                    checks = merged(checks, versions(check.group(1)))
                keyword = re.match(r"\s*(?:\}\s*)?(?:else\s+)?(\w+)", header)
                keyword = keyword.group(1) if keyword else ""
                if keyword in ("if", "while"):
                    own = merged(own, checks)
                elif keyword == "guard":
                    after = checks
                declared = DECLARATION.search(header)
                type_name = stack[-1][2]
                if declared and declared.group(1) in ("class", "struct", "enum", "protocol", "actor", "extension"):
                    type_name = declared.group(2)
                stack.append([merged(stack[-1][0], own), after, type_name])
                self.context.append((position, stack[-1][0], type_name))
            elif char == "}" and len(stack) > 1:
                _, after, _ = stack.pop()
                if after:
                    stack[-1][0] = merged(stack[-1][0], after)
                self.context.append((position, stack[-1][0], stack[-1][2]))
        # An @available covers its statement up to its first brace (all of it when it has none: a stored property).
        self.statements = []
        for start, attribute_end, found in pending:
            end = next((e for e in self.ends if e >= attribute_end), len(self.code))
            self.statements.append((start, end, found))
        # Our declarations carrying @available, and the members of annotated types and extensions.
        depth_types = []
        for match in AVAILABLE.finditer(self.code):
            found = versions(match.group(1))
            if not found:
                continue
            declared = DECLARATION.match(self.code, match.start())
            if not declared:
                continue
            kind, name = declared.group(1), declared.group(2)
            enclosing = self.type_at(match.start())
            if kind == "extension" or kind in ("class", "struct", "enum", "protocol", "actor"):
                brace = self.code.find("{", declared.end())
                if brace >= 0:
                    depth_types.append((brace, self.matching(brace), found, name))
            if kind not in ("extension", "init", "subscript") and name:
                self.declarations.append((declared.start(2), kind, name, found, enclosing is not None, enclosing))
        for brace, close, found, type_name in depth_types:
            for member in DECLARATION.finditer(self.code, brace + 1, close):
                if self.code.count("{", brace + 1, member.start()) - self.code.count("}", brace + 1, member.start()):
                    continue  # deeper than the type's own members
                kind, name = member.group(1), member.group(2)
                if name and kind in ("func", "var", "let", "case", "class", "struct", "enum", "typealias"):
                    own = {}
                    attributes = AVAILABLE.findall(self.code, member.start(), member.end())
                    for attribute in attributes:
                        own = merged(own, versions(attribute))
                    self.declarations.append((member.start(2), kind, name, merged(found, own), True, type_name))

    def matching(self, brace):
        depth = 0
        for position in range(brace, len(self.code)):
            if self.code[position] == "{":
                depth += 1
            elif self.code[position] == "}":
                depth -= 1
                if depth == 0:
                    return position
        return len(self.code)

    def type_at(self, position):
        """The name of the type or extension whose braces hold `position`, or None at the top level."""
        name, depth_names = None, []
        for match in re.finditer(r"[{}]", self.code[:position]):
            if match.group(0) == "{":
                declared = DECLARATION.search(self.header(match.start()))
                is_type = declared and declared.group(1) in ("class", "struct", "enum", "protocol", "actor",
                                                              "extension")
                depth_names.append(declared.group(2) if is_type else None)
            elif depth_names:
                depth_names.pop()
        for candidate in reversed(depth_names):
            if candidate:
                name = candidate
                break
        # Only a direct member counts as inside the type: a local declaration in a function is not a member.
        return name if depth_names and depth_names[-1] else None

    def at(self, position):
        """The availability known at `position`, whether it is in a Linux-only branch, and the innermost type or
        extension around it."""
        known, type_name = {}, None
        for start, found, name in self.context:
            if start > position:
                break
            known, type_name = found, name
        for start, end, found in self.statements:
            if start <= position <= end:
                known = merged(known, found)
        line = self.code.count("\n", 0, position) + 1
        return known, line in self.linux, type_name


def short(found):
    return ", ".join(f"{p} {'.'.join(map(str, v))}" for p, v in found.items())


def check(files, package_minimums):
    """Findings over `files` ({path: text}), each 'path:line: <name> needs …, used where … is not known', and the
    number of uses looked at (outside Linux-only branches)."""
    scopes = {path: Scopes(blank(text)) for path, text in files.items()}

    def above(found):
        """What `found` asks beyond the package's minimums, on the platforms the package names (visionOS takes
        iOS's availability where a declaration does not name it)."""
        return {p: v for p, v in found.items() if p in package_minimums and v > package_minimums[p]}

    restricted = []  # (pattern, label, requirement, declaration path, declaration position or None, member type)
    for path, scope in scopes.items():
        for position, kind, name, found, is_member, type_name in scope.declarations:
            need = above(found)
            if not need:
                continue
            if is_member:
                pattern = rf"\.{name}\b" if kind != "func" else rf"\.{name}\b|(?<![\w.]){name}\s*\("
            else:
                pattern = rf"(?<![\w.]){name}\b"
            restricted.append((pattern, f"{type_name + '.' if type_name else ''}{name}", need, path, position,
                               type_name if is_member and kind == "func" else None))
    for pattern, (label, found) in KNOWN.items():
        need = above(found)
        if need:
            restricted.append((pattern, label, need, None, None, None))
    findings, uses = [], 0
    for path, scope in scopes.items():
        for pattern, label, need, declared_in, declared_at, member_type in restricted:
            for use in re.finditer(pattern, scope.code):
                if declared_in == path and use.start() <= declared_at < use.end() + 1:
                    continue  # the declaration itself
                known, linux, around = scope.at(use.start())
                if linux:
                    continue
                if not use.group(0).startswith(".") and member_type and around != member_type:
                    continue  # a bare call of another type's function of the same name
                uses += 1
                missing = {p: v for p, v in need.items() if known.get(p, ()) < v}
                if missing:
                    line = scope.code.count("\n", 0, use.start()) + 1
                    findings.append(f"{path}:{line}: {label} needs {short(need)}, used where {short(missing)} is not"
                                    f" known (add @available to the enclosing declaration, or check #available)")
    return sorted(set(findings)), uses


FIXTURES = {
    # The declarations: a property and a member of an extension above the minimum (macOS 13 here), one at it.
    "Decl.swift": """
        public final class Transport {
            /// Sample: `transport.executor` in a comment is no use.
            @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
            public var executor: Int { 1 }
            @available(macOS 13.0, *)
            public var old: Int { 1 }
        }
        @available(macOS 15.0, iOS 18.0, *)
        extension Loop: Runner {
            func runJob(_ job: Int) {}
        }
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
        public func topLevel(
            _ value: Int
        ) -> Int { value + Transport().executor }
        """,
    "Uses.swift": """
        func bare() { _ = Transport().executor }                                       // finding 1
        func older() { _ = Transport().old; _ = "t.executor" }
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
        func annotated() { _ = Transport().executor; _ = [1].map { _ in Transport().executor } }
        @available(macOS 14.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
        func tooLow() { _ = Transport().executor }                                     // finding 2: macOS 14
        @available(iOS 18.0, tvOS 18.0, watchOS 11.0, *)
        func noMac() { _ = Transport().executor }                                      // finding 3: macOS
        func checked(flag: Bool) {
            if flag, #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) { _ = Transport().executor }
            if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) {
                _ = Transport().executor
            } else {
                _ = Transport().executor                                               // finding 4: the else
            }
            _ = Transport().executor                                                   // finding 5: after the if
        }
        func guarded() {
            guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) else { return }
            _ = Transport().executor
        }
        func guardedInside() {
            do {
                guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) else { return }
            }
            _ = Transport().executor                                                   // finding 6: other scope
        }
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
        extension Holder {
            func member() {
                _ = Transport().executor
                _ = withTaskExecutorPreference(nil) { 1 }
            }
        }
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
        let stored = Transport().executor
        func afterStored() { _ = Transport().executor }                                // finding 7
        #if os(Linux)
            func linux() { _ = Transport().executor }
        #endif
        func standard() { _ = withTaskExecutorPreference(nil) { 1 } }                  // finding 8
        func viaMember(loop: Loop) { loop.runJob(1) }                                  // finding 9
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
        func multiline(
            a: Int,
            b: Int
        ) -> Int {
            Transport().executor
        }
        """,
    "Loop.swift": """
        final class Loop {
            func round() {
                if #available(macOS 15.0, iOS 18.0, *) { runJob(1) }
                runJob(2)                                                              // finding 10
            }
            func handle(_ command: Int) {
                switch command {
                case 1:
                    if #available(macOS 15.0, iOS 18.0, *) { runJob(1) }
                default:
                    runJob(2)                                                          // finding 11
                }
            }
        }
        final class Other { func runJob(_ x: Int) {} ; func go() { runJob(1) } }
        """,
}
EXPECTED = {("Uses.swift", 1), ("Uses.swift", 6), ("Uses.swift", 8), ("Uses.swift", 14), ("Uses.swift", 16),
            ("Uses.swift", 26), ("Uses.swift", 37), ("Uses.swift", 41), ("Uses.swift", 42), ("Loop.swift", 4),
            ("Loop.swift", 11)}


def self_test():
    """Runs the check on FIXTURES: each expected finding and nothing else, so the check cannot pass everything."""
    import textwrap
    files = {name: textwrap.dedent(text).lstrip("\n") for name, text in FIXTURES.items()}
    found, _ = check(files, {"macOS": (13,), "iOS": (16,), "tvOS": (16,), "watchOS": (9,)})
    places = {(line.split(":")[0], int(line.split(":")[1])) for line in found}
    if places != EXPECTED:
        for line in found:
            print("  found:", line)
        print(f"availability_check --self-test: expected {sorted(EXPECTED)}, missing {sorted(EXPECTED - places)},"
              f" unexpected {sorted(places - EXPECTED)}", file=sys.stderr)
        return 1
    print(f"availability_check --self-test: {len(EXPECTED)} findings in the fixtures, as expected")
    return 0


def self_test_first(arguments, self_test):
    """For a check's main: with `--self-test` first in `arguments`, runs `self_test` on the check's fixtures.
    Returns the status to exit with (the self-test's when it failed or nothing else was asked, else None: go on)
    and the arguments left to check."""
    if arguments[:1] != ["--self-test"]:
        return None, arguments
    status = self_test()
    return (status if status or len(arguments) == 1 else None), arguments[1:]


def main(arguments):
    status, arguments = self_test_first(arguments, self_test)
    if status is not None:
        return status
    package_minimums = minimums((ROOT / "Package.swift").read_text(encoding="utf-8"))
    files = {}
    for directory in arguments or ["Sources", "Tests"]:
        for path in sorted(Path(directory).rglob("*.swift")):
            files[str(path)] = path.read_text(encoding="utf-8")
    findings, uses = check(files, package_minimums)
    for line in findings:
        print(line)
    floor = short(package_minimums)
    if findings:
        print(f"availability_check: {len(findings)} uses of declarations above the package's minimums ({floor})"
              " outside a context that guarantees them", file=sys.stderr)
        return 1
    print(f"availability_check: {len(files)} Swift files, {uses} uses of declarations above {floor}: each inside an"
          " @available or #available context of its version")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
