"""What the test servers share: whether the test run that started them still runs, and finding a Python that can
run them (stdlib only).

Usage: lifecycle.py tls13-python   prints a Python whose ssl has TLS 1.3 (this one first), or says in one line what
                                   to install and exits 1 (make test's first step: the fault server needs one)
"""
import os
import platform
import shutil
import ssl
import subprocess
import sys

# Exits 0 on a Python whose ssl has TLS 1.3: Xcode's python3 (3.9, LibreSSL 2.8.3) has none.
TLS13 = "import ssl, sys; sys.exit(not ssl.HAS_TLSv1_3)"


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


def parent_gone(parent_pid):
    """Whether the test run that started a server (`--parent-pid`; None or 0 when there is none) is gone. A dead
    parent may linger as a zombie, so the server's own parent pid is compared too: it changes when the parent dies."""
    return bool(parent_pid) and (os.getppid() != parent_pid or not pid_alive(parent_pid))


def publish(path, text):
    """Writes `text` to `path` in one step (a temporary file renamed over it), so a test reading the port file never
    sees half of it."""
    tmp = f"{path}.tmp.{os.getpid()}"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


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


def tls13_python():
    """This Python when its ssl has TLS 1.3, else the first one `find_python` finds that has; None when none has. The
    fault server runs itself on it: its TLS 1.3 client-certificate listener needs TLS 1.3."""
    if subprocess.run([sys.executable, "-c", TLS13], capture_output=True).returncode == 0:
        return sys.executable
    return find_python(TLS13)


def main(arguments):
    if arguments != ["tls13-python"]:
        sys.exit(__doc__.split("Usage: ", 1)[1].strip())
    found = tls13_python()
    if found:
        print(found)
        return 0
    print(f"make test: the fault server needs a Python whose ssl has TLS 1.3; python3 here ({platform.python_version()},"
          f" {ssl.OPENSSL_VERSION}) has none, nor does any python3.N on PATH, Homebrew's or Xcode's: install one"
          " (brew install python@3.13) and run make test again", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
