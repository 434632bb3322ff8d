"""What the test servers that need PyPI packages share: a virtual environment built from pins (stdlib only)."""
import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import sys
import venv


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


def ensure_venv(venv_dir, pins, log):
    """Create the venv and install `pins` unless a complete venv with the same pins is there; `log` reports."""
    stamp = os.path.join(venv_dir, "pins.json")
    with locked(venv_dir + ".lock"):
        try:
            with open(stamp) as f:
                if json.load(f) == pins and os.path.exists(venv_python(venv_dir)):
                    return
        except (OSError, ValueError):
            pass
        if os.path.exists(venv_dir):
            log(f"rebuilding {venv_dir} (incomplete or built from other pins)")
            shutil.rmtree(venv_dir)
        log(f"creating {venv_dir} and installing {', '.join(pins[:2])} from PyPI")
        venv.EnvBuilder(with_pip=True, clear=True).create(venv_dir)
        command = [venv_python(venv_dir), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                   "--no-input", "--timeout", "60"] + pins
        result = subprocess.run(command, stdout=sys.stderr, stderr=sys.stderr)
        if result.returncode != 0:
            shutil.rmtree(venv_dir, ignore_errors=True)
            sys.exit(f"pip install of {', '.join(pins)} failed with status {result.returncode}")
        with open(stamp, "w") as f:
            json.dump(pins, f)
