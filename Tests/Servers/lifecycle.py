"""What the test servers share: whether the test run that started them still runs, and finding a Python that can
run them (stdlib only)."""
import os
import shutil
import subprocess


def pid_alive(pid):
    """Whether `pid` runs; a zombie (exited, not yet reaped by its new parent) counts as gone."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True  # no /proc (macOS): trust kill(0)


def find_python(probe, minors=range(14, 8, -1)):
    """The first Python on this machine for which `probe` (Python code) exits 0: `python3.N` on PATH for each minor
    version in `minors`, then a Mac's usual places (Homebrew's, then Xcode's `/usr/bin/python3`). None when none
    does. A candidate that does not run (a pyenv shim of a version not selected) is skipped."""
    candidates = [shutil.which(f"python3.{minor}") for minor in minors]
    candidates += ["/opt/homebrew/bin/python3", "/usr/local/bin/python3", "/usr/bin/python3"]
    for candidate in candidates:
        if not candidate or not os.path.exists(candidate):
            continue
        try:
            if subprocess.run([candidate, "-c", probe], capture_output=True, timeout=30).returncode == 0:
                return candidate
        except (OSError, subprocess.SubprocessError):
            continue
    return None
