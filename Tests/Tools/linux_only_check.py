#!/usr/bin/env python3
"""Fails unless every Linux-only target says so, on a Mac, in one line (make portability).

`make sanitize` (LeakSanitizer, Linux Foundation's suppressions), `make fuzz` (FoundationNetworking, libFuzzer),
`make api-check` and `make api-baseline` (a baseline of Linux's API) and `.ci/run` (GNU timeout, and those targets)
run on Linux alone. Each must (1) say "Linux only" in `make help` (the CI script: in its opening comment), (2) check
`uname -s` before anything else, and (3) run with a `uname` that answers Darwin, stop at once with one line naming
itself and "Linux", and exit non-zero. `make docs` runs wherever a docc is found: with none, it says so in one line.
The runs take a fake `uname` first on PATH; nothing is built (the check stops a run that has not ended in 60 s).
"""
import os
import re
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TARGETS = ["sanitize", "fuzz", "api-check", "api-baseline"]


def recipe(makefile, target):
    """The recipe lines of `target`, and its help text."""
    match = re.search(rf"^{re.escape(target)}:[^\n]*?(?:## ([^\n]*))?\n((?:\t[^\n]*\n)*)", makefile, re.MULTILINE)
    return (match.group(2).splitlines(), match.group(1) or "") if match else ([], "")


def static_problems():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    found = []
    for target in TARGETS:
        lines, help_text = recipe(makefile, target)
        if not help_text.startswith("Linux only"):
            found.append(f"make {target}: its help text does not start with 'Linux only': {help_text}")
        commands = [line.strip() for line in lines if not line.strip().startswith("@#")]
        guarded = commands and ("uname -s" in commands[0] or commands[0].lstrip("@").startswith("Tests/Tools/fuzz.sh"))
        if target == "fuzz" and guarded and "uname -s" not in (ROOT / "Tests/Tools/fuzz.sh").read_text()[:2000]:
            guarded = False
        if not guarded:
            found.append(f"make {target}: its first command does not check uname -s: {commands[0] if commands else ''}")
    ci = (ROOT / ".ci/run").read_text(encoding="utf-8")
    if "uname -s" not in ci[:ci.find("step ") if "step " in ci else len(ci)]:
        found.append(".ci/run: no uname -s check before its first step")
    return found


def run(command, directory):
    """Runs `command` with a uname answering Darwin first on PATH; (status, output)."""
    env = dict(os.environ, PATH=f"{directory}:{os.environ['PATH']}", MAKEFLAGS="")
    try:
        result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return None, "still running after 60 s"
    return result.returncode, (result.stdout + result.stderr).strip()


def dynamic_problems():
    found = []
    with tempfile.TemporaryDirectory() as directory:
        fake = Path(directory) / "uname"
        fake.write_text("#!/bin/sh\necho Darwin\n")
        fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
        runs = [(f"make {target}", ["make", "-s", target], f"make {target}: ") for target in TARGETS]
        for name, command, prefix in runs + [(".ci/run", [".ci/run"], "ci: ")]:
            status, output = run(command, directory)
            said = [line for line in output.splitlines() if not re.match(r"make(\[\d+\])?: \*\*\*", line)]
            if status in (None, 0) or len(said) != 1 or not said[0].startswith(prefix) or "Linux" not in said[0]:
                found.append(f"{name} on a Mac: status {status}, said: {output[:300]!r}")
        status, output = run(["make", "-s", "docs", "DOCC=/nonexistent/docc"], directory)
        if status in (None, 0) or "no docc" not in output:
            found.append(f"make docs without docc: status {status}, said: {output[:300]!r}")
    return found


def main():
    found = static_problems()
    found = found or dynamic_problems()
    for problem in found:
        print(f"linux_only_check: {problem}")
    if found:
        print(f"linux_only_check: {len(found)} Linux-only targets that do not say so on a Mac", file=sys.stderr)
        return 1
    print(f"linux_only_check: make {', '.join(TARGETS)} and .ci/run say in one line, on a Mac, that they are Linux"
          " only; make docs names the missing docc")
    return 0


if __name__ == "__main__":
    sys.exit(main())
