#!/usr/bin/env python3
"""Start and stop a local httpbin (PyPI `httpbin`, served by gunicorn) for the real-server tests.

Usage:
    python3 Tests/Servers/httpbin.py start [--state DIR] [--parent-pid PID] [--lifetime SECONDS]
    python3 Tests/Servers/httpbin.py stop  [--state DIR]
    python3 Tests/Servers/httpbin.py url   [--state DIR]

start  creates the virtual environment when it is missing (or was built from other pins), on a Python the pins fit
       (this one, or the newest python3.N on PATH that fits; one line saying what to install when none does),
       installs the pinned packages from PyPI, starts gunicorn bound to 127.0.0.1 on a free port, waits until GET /get answers 200,
       and prints the base URL (http://127.0.0.1:PORT) on stdout. The port is also written to DIR/port.
       Starting when a server of the same state folder already answers just prints its URL.
stop   stops the server started with the same state folder (SIGINT, then SIGKILL after 10 s) and removes
       its state files. Stopping when nothing runs is not an error.
url    prints the URL of the running server, or exits 1.

The server never outlives its welcome: it exits by itself after --lifetime seconds (default 3600), and, with
--parent-pid, as soon as that process is gone (the test run that started it). It binds loopback only.

Environment:
    HTTPBIN_VENV   where the virtual environment lives (default: .build/venv-httpbin in the repository)
    HTTPBIN_STATE  default state folder (default: .build/httpbin in the repository)

Only the standard library is used here; pip talks to PyPI and nothing else.
"""

import argparse
import contextlib
import inspect
import os
import signal
import subprocess
import sys
import time
import urllib.request
from lifecycle import find_python, pid_alive
import venvs
from venvs import venv_python

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Versions verified together, on Linux: httpbin 0.10.4 needs Flask >= 2.2 and Werkzeug >= 2.2; gunicorn 23.0.0
# leaves no control socket in the home folder (27.x does). Everything httpbin pulls in is pinned too, so a fresh
# clone installs exactly what was tested, on each CPython from PYTHONS: a Mac has Xcode's 3.9 and Homebrew's 3.12 to
# 3.14. Markers where one version cannot serve them all: httpbin itself asks greenlet < 3 before Python 3.12 and
# >= 3 from it; Flask needs importlib-metadata on 3.9; brotlicffi 1.2 has no wheel for Intel Macs, 1.1 none for
# Apple silicon. `make portability` resolves them for each Python, here and on macOS (Tests/Tools/
# httpbin_pins_check.py); httpbin was started and the httpbin suites passed on 3.9 to 3.13 here (3.14: resolved only).
PINS = [
    "httpbin==0.10.4",
    "gunicorn==23.0.0",
    "Flask==3.1.3",
    "Werkzeug==3.1.9",
    "blinker==1.9.0",
    'brotlicffi==1.2.1.0; sys_platform != "darwin" or platform_machine == "arm64"',
    'brotlicffi==1.1.0.0; sys_platform == "darwin" and platform_machine != "arm64"',
    "cffi==2.0.0",
    "click==8.1.8",
    "decorator==5.3.1",
    'greenlet==2.0.2; python_version < "3.12"',
    'greenlet==3.2.4; python_version >= "3.12"',
    'importlib-metadata==8.7.0; python_version < "3.10"',
    "itsdangerous==2.2.0",
    "Jinja2==3.1.6",
    "MarkupSafe==3.0.3",
    "packaging==26.3",
    "pycparser==2.23",
    "six==1.17.0",
    'zipp==3.23.0; python_version < "3.10"',
]
# The CPython versions the pins install on (first and last minor version).
PYTHONS = ((3, 9), (3, 14))

# Written into the state folder and given to gunicorn with -c: the master reports its port once it listens,
# and shuts itself down after the lifetime or when the parent process is gone.
GUNICORN_CONFIG = '''\
import os, signal, threading, time

bind = ["127.0.0.1:0"]
workers = 2
worker_class = "gthread"
threads = 16
keepalive = 75  # longer than any test's idle gap, so the client never races a server-side close
timeout = 60
graceful_timeout = 5
accesslog = None
loglevel = "warning"

PORT_FILE = {port_file!r}
LIFETIME = {lifetime!r}
PARENT_PID = {parent_pid!r}


def _stop(master_pid):
    try:
        os.kill(master_pid, signal.SIGINT)  # quick shutdown
    except OSError:
        pass


# PID_ALIVE: pid_alive() of lifecycle.py is written here, so both processes use one definition.


def _watch(master_pid):
    deadline = time.monotonic() + LIFETIME
    while time.monotonic() < deadline:
        if PARENT_PID and not pid_alive(PARENT_PID):
            break
        time.sleep(0.5)
    _stop(master_pid)


def when_ready(server):
    signal.pthread_sigmask(signal.SIG_SETMASK, set())  # see unblock_signals() in httpbin.py
    port = server.LISTENERS[0].sock.getsockname()[1]
    tmp = PORT_FILE + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(port) + "\\n")
    os.replace(tmp, PORT_FILE)
    threading.Thread(target=_watch, args=(os.getpid(),), daemon=True).start()
'''


def default_path(env, *parts):
    return os.path.abspath(os.environ.get(env) or os.path.join(ROOT, *parts))


def log(message):
    print(f"httpbin: {message}", file=sys.stderr, flush=True)


def supported_pythons():
    """Each CPython version (major, minor) the pins install on."""
    return [(3, minor) for minor in range(PYTHONS[0][1], PYTHONS[1][1] + 1)]


def interpreter():
    """A Python the pins fit: this one when it does, otherwise the newest `python3.N` on PATH that does, then a
    Mac's usual places (Homebrew's, Xcode's). Exits with one line saying what to install when there is none."""
    if sys.version_info[:2] in supported_pythons():
        return sys.executable
    low, high = PYTHONS
    fits = f"import sys; sys.exit(not {low} <= sys.version_info[:2] <= {high})"
    found = find_python(fits, [minor for _, minor in reversed(supported_pythons())])
    if found:
        return found
    sys.exit(f"httpbin: its pinned packages need CPython {'%d.%d' % low} to {'%d.%d' % high}; this is"
             f" {sys.version.split()[0]} ({sys.executable}) and no python3.{low[1]} to python3.{high[1]} is on PATH:"
             " install one (on a Mac: brew install python@3.13, or xcode-select --install for 3.9)")


def ensure_venv(venv_dir):
    """Create the venv and install the pins unless a complete venv with the same pins, on a Python they fit, is
    there. The venv runs on a Python the pins fit (`interpreter()`)."""
    venvs.ensure_venv(venv_dir, PINS, log, interpreter=interpreter, versions=supported_pythons())


def read(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def answers(url, timeout=2.0):
    try:
        with urllib.request.urlopen(url + "/get", timeout=timeout) as response:
            return response.status == 200
    except OSError:
        return False


def running_url(state):
    port, pid = read(os.path.join(state, "port")), read(os.path.join(state, "pid"))
    if not (port and pid and pid.isdigit() and pid_alive(int(pid))):
        return None
    url = f"http://127.0.0.1:{port}"
    return url if answers(url) else None


def start(args):
    state = os.path.abspath(args.state)
    url = running_url(state)
    if url:
        print(url)
        return
    stop(args, quiet=True)
    ensure_venv(args.venv)
    os.makedirs(state, exist_ok=True)
    port_file = os.path.join(state, "port")
    config = os.path.join(state, "gunicorn.conf.py")
    with open(config, "w") as f:
        config_text = GUNICORN_CONFIG.format(port_file=port_file, lifetime=float(args.lifetime),
                                             parent_pid=args.parent_pid)
        f.write(config_text.replace(
            "# PID_ALIVE: pid_alive() of lifecycle.py is written here, so both processes use one definition.\n",
            inspect.getsource(pid_alive)))
    log_path = os.path.join(state, "gunicorn.log")
    with open(log_path, "w") as log_file:
        process = subprocess.Popen(
            [venv_python(args.venv), "-m", "gunicorn", "-c", config, "httpbin:app"],
            stdin=subprocess.DEVNULL, stdout=log_file, stderr=log_file, cwd=state,
            start_new_session=True)  # its own group: Ctrl-C in make reaches it only through `stop`
    with open(os.path.join(state, "pid"), "w") as f:
        f.write(f"{process.pid}\n")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"httpbin: gunicorn exited with status {process.returncode}; log:\n{read(log_path)}")
        port = read(port_file)
        if port and answers(f"http://127.0.0.1:{port}", timeout=1.0):
            print(f"http://127.0.0.1:{port}")
            return
        time.sleep(0.1)
    stop(args, quiet=True)
    sys.exit(f"httpbin: no answer within 30 s; log:\n{read(log_path)}")


def stop(args, quiet=False):
    state = os.path.abspath(args.state)
    pid = read(os.path.join(state, "pid"))
    if pid and pid.isdigit() and pid_alive(int(pid)):
        pid = int(pid)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGINT)  # gunicorn's quick shutdown
            deadline = time.monotonic() + 10
            while pid_alive(pid) and time.monotonic() < deadline:
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(pid, os.WNOHANG)
                time.sleep(0.05)
            if pid_alive(pid):
                os.kill(pid, signal.SIGKILL)
        if not quiet:
            log(f"stopped (pid {pid})")
    for name in ("pid", "port"):
        with contextlib.suppress(OSError):
            os.remove(os.path.join(state, name))


def unblock_signals():
    """Clear the inherited signal mask. A test process (Foundation's `Process`) may start us with SIGINT and
    SIGTERM blocked; gunicorn's master would then never see the signals that stop it."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_SETMASK, set())


def main():
    unblock_signals()
    parser = argparse.ArgumentParser(description="Local httpbin for the tests")
    parser.add_argument("command", choices=["start", "stop", "url"])
    parser.add_argument("--state", default=default_path("HTTPBIN_STATE", ".build", "httpbin"))
    parser.add_argument("--venv", default=default_path("HTTPBIN_VENV", ".build", "venv-httpbin"))
    parser.add_argument("--parent-pid", type=int, default=0)
    parser.add_argument("--lifetime", type=float, default=3600)
    args = parser.parse_args()
    if args.command == "start":
        start(args)
    elif args.command == "stop":
        stop(args)
    else:
        url = running_url(os.path.abspath(args.state))
        if not url:
            sys.exit(1)
        print(url)


if __name__ == "__main__":
    main()
