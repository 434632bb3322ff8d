"""What the test servers that need PyPI packages share: a virtual environment built from pins (stdlib only).
httpbin.py, duplex_server.py and websockets_peer.py each keep theirs in .build/ and build it on first use."""
import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import sys


@contextlib.contextmanager
def locked(path):
    """Hold an exclusive lock on `path` so two test runs never build one venv at the same time."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def venv_python(venv_dir):
    return os.path.join(venv_dir, "bin", "python")


def python_version(executable):
    """(major, minor) of the Python at `executable`, or None when it does not run."""
    try:
        result = subprocess.run([executable, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                                capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    parts = result.stdout.strip().split(".")
    return (int(parts[0]), int(parts[1])) if result.returncode == 0 and len(parts) == 2 else None


def ensure_venv(venv_dir, pins, log, interpreter=lambda: sys.executable, versions=None):
    """Create the venv and install `pins` unless a complete venv with the same pins is there; `log` reports.

    The venv is made with the Python `interpreter()` returns (called only when the venv is made; it may exit with
    a line saying what to install), and pip reads the pins' markers for it. With `versions`, a list of (major,
    minor), a venv whose Python is not among them is made again (a venv left by a Python the pins do not fit)."""
    stamp = os.path.join(venv_dir, "pins.json")
    with locked(venv_dir + ".lock"):
        try:
            with open(stamp) as f:
                if json.load(f) == pins and os.path.exists(venv_python(venv_dir)) and \
                        (versions is None or python_version(venv_python(venv_dir)) in versions):
                    return
        except (OSError, ValueError):
            pass
        python = interpreter()
        if os.path.exists(venv_dir):
            log(f"rebuilding {venv_dir} (incomplete or built from other pins)")
            shutil.rmtree(venv_dir)
        log(f"creating {venv_dir} with {python} and installing {', '.join(pins[:2])} from PyPI")
        result = subprocess.run([python, "-m", "venv", "--clear", venv_dir], stdout=sys.stderr, stderr=sys.stderr)
        if result.returncode != 0:
            shutil.rmtree(venv_dir, ignore_errors=True)
            sys.exit(f"{python} -m venv failed with status {result.returncode} (on Debian: apt-get install"
                     " python3-venv)")
        command = [venv_python(venv_dir), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                   "--no-input", "--timeout", "60"] + pins
        result = subprocess.run(command, stdout=sys.stderr, stderr=sys.stderr)
        if result.returncode != 0:
            shutil.rmtree(venv_dir, ignore_errors=True)
            sys.exit(f"pip install of {', '.join(pins)} failed with status {result.returncode}")
        with open(stamp, "w") as f:
            json.dump(pins, f)
