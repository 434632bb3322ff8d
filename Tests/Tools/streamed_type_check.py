#!/usr/bin/env python3
"""Fails when a test server paces a body out without a type Apple's loader passes at once (make portability).

Apple's loader holds back the head and the first bytes of a body that has no Content-Type, or a generic one
(httpbin's application/octet-stream), until 512 bytes have come, to sniff the type (developer.apple.com/forums/
thread/64875); Linux's loader does not, so a run here cannot see it. A test reading such a body as it arrives (a
dripped byte, a chunk before an idle pause) then waits for the head on a Mac. So every route of
Tests/Servers/fault_server.py that writes its body in a loop that sleeps (a paced body) must send a typed head:
STREAMED_TYPE (or STREAMED_CHUNKED_HEAD), or a head with `X-Content-Type-Options: nosniff` and its own type.
Usage: streamed_type_check.py [fault_server.py]
"""
import ast
import sys
from pathlib import Path

SERVER = Path(__file__).resolve().parents[1] / "Servers" / "fault_server.py"
TYPED = ("STREAMED_TYPE", "STREAMED_CHUNKED_HEAD", "nosniff")
WRITES = {"raw", "write", "raw_then_close"}


def calls(node, name):
    """Whether `node` holds a call of an attribute or function called `name`."""
    return any(isinstance(inner, ast.Call) and getattr(inner.func, "attr", getattr(inner.func, "id", None)) == name
               for inner in ast.walk(node))


def paced_routes(text):
    """(line, name, typed) of each @route function that writes in a loop that also sleeps."""
    found = []
    for function in ast.walk(ast.parse(text)):
        if not isinstance(function, ast.FunctionDef):
            continue
        if not any(isinstance(d, ast.Call) and getattr(d.func, "id", None) == "route" for d in function.decorator_list):
            continue
        loops = [node for node in ast.walk(function) if isinstance(node, (ast.For, ast.While))]
        if any(calls(loop, "sleep") and any(calls(loop, write) for write in WRITES) for loop in loops):
            source = ast.get_source_segment(text, function) or ""
            found.append((function.lineno, function.name, any(name in source for name in TYPED)))
    return found


def main(arguments):
    path = Path(arguments[0]) if arguments else SERVER
    routes = paced_routes(path.read_text(encoding="utf-8"))
    untyped = [(line, name) for line, name, typed in routes if not typed]
    for line, name in untyped:
        print(f"{path}:{line}: {name} paces its body out without STREAMED_TYPE or nosniff: Apple's loader would hold"
              " its head until 512 bytes")
    if untyped:
        print(f"streamed_type_check: {len(untyped)} paced bodies without a type Apple's loader passes at once",
              file=sys.stderr)
        return 1
    print(f"streamed_type_check: {len(routes)} routes pace their body ({', '.join(n for _, n, _ in routes)}), each"
          " with a type Apple's loader passes at once")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
