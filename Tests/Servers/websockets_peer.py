#!/usr/bin/env python3
"""A WebSocket peer nobody here wrote: the `websockets` package from PyPI, as an echo server (plain and TLS) for the
real-peer tests, and as a client for the benchmarks.

Usage:
    python3 websockets_peer.py serve --port-file PATH [--parent-pid PID] [--lifetime 1800]
    python3 websockets_peer.py bench URL --count N --size BYTES

serve  creates the virtual environment when it is missing (or was built from other pins; .build/venv-websockets,
       or WEBSOCKETS_VENV), then serves on 127.0.0.1, plain and, when NETWORKING_TEST_CA_DIR names the run's test
       authority (Tests/Servers/with_test_ca.sh), TLS with a certificate it signs. It writes {"plain": P, "tls": Q}
       (Q is 0 without an authority) to the port file once both listen, and exits after --lifetime seconds or as
       soon as --parent-pid is gone.
bench  echoes N binary messages of BYTES bytes, one at a time, with the package's client, and prints
       {"messages_per_second": R}.

Routes:
    /echo               every message back as it came (no size limit)
    /auth               /echo for a handshake carrying "Authorization: Bearer t0ken"; a 401 with a body otherwise
    /push?bytes=N&size=S  N bytes in binary messages of S bytes (65536), as fast as the client reads, then a close
                        with 1000; the package's send waits while its buffer is full, so a slow reader slows it down
    /close?code=C       closes at once with code C and the reason "bye"
    /__closes?key=K     plain HTTP: {"code", "reason"} of the client's close frame on the connection that carried
                        ?key=K (any route), once it ended; null before
The subprotocol chat.v1 is chosen when offered. Compression (permessage-deflate) is off: the client under test
offers none, and the benchmark compares framing, not zlib.
"""

import argparse
import asyncio
import json
import os
import signal
import ssl
import sys
import tempfile
import time
import urllib.parse

from certificates import issue
from lifecycle import parent_gone, publish
import venvs

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# websockets 15.0.1: no dependencies, Python 3.9 or later (checked in its wheel's metadata), the asyncio API used
# here (websockets.asyncio.server/client) is the package's default since 14.0.
PINS = ["websockets==15.0.1"]


def log(message):
    print(f"websockets_peer: {message}", file=sys.stderr, flush=True)


def certificate(authority):
    """A TLS context with a leaf certificate for 127.0.0.1 signed by the run's authority, made by certificates.py as
    every test server's is (its key's curve named, as a Mac's LibreSSL needs), in a temporary folder."""
    folder = tempfile.mkdtemp(prefix="networking-websockets-")
    cert, key = issue(folder, "leaf", "/CN=127.0.0.1",
                      ["subjectAltName=IP:127.0.0.1", "basicConstraints=CA:FALSE", "extendedKeyUsage=serverAuth"],
                      authority)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    return context


async def serve(args):
    from http import HTTPStatus
    from websockets.asyncio.server import serve as websockets_serve

    closes = {}

    async def handler(websocket):
        url = urllib.parse.urlsplit(websocket.request.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        try:
            await route(websocket, url, query)
        finally:
            if "key" in query:
                await websocket.wait_closed()
                closes[query["key"]] = {"code": websocket.close_code, "reason": websocket.close_reason}

    async def route(websocket, url, query):
        if url.path == "/push":
            total, size = int(query.get("bytes", 1 << 20)), int(query.get("size", 65536))
            chunk = os.urandom(min(size, total))
            sent = 0
            while sent < total:
                piece = chunk[:min(size, total - sent)]
                await websocket.send(piece)
                sent += len(piece)
            await websocket.close(1000, "pushed")
        elif url.path == "/close":
            await websocket.close(int(query.get("code", 1000)), "bye")
        else:
            async for message in websocket:
                await websocket.send(message)

    def process_request(connection, request):
        if request.path.startswith("/__closes"):
            key = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(request.path).query)).get("key")
            return connection.respond(HTTPStatus.OK, json.dumps(closes.get(key)) + "\n")
        if request.path.startswith("/auth") and request.headers.get("Authorization") != "Bearer t0ken":
            return connection.respond(HTTPStatus.UNAUTHORIZED, "a bearer token is required\n")
        return None

    def select_subprotocol(connection, offered):
        return "chat.v1" if "chat.v1" in offered else None

    options = dict(process_request=process_request, select_subprotocol=select_subprotocol, compression=None,
                   max_size=None, ping_interval=None)
    plain = await websockets_serve(handler, "127.0.0.1", 0, **options)
    ports = {"plain": plain.sockets[0].getsockname()[1], "tls": 0}
    authority = os.environ.get("NETWORKING_TEST_CA_DIR")
    secure = None
    if authority:
        secure = await websockets_serve(handler, "127.0.0.1", 0, ssl=certificate(authority), **options)
        ports["tls"] = secure.sockets[0].getsockname()[1]
    publish(args.port_file, json.dumps(ports))
    deadline = time.monotonic() + args.lifetime
    while time.monotonic() < deadline:
        if parent_gone(args.parent_pid):
            break
        await asyncio.sleep(0.5)
    plain.close()
    if secure:
        secure.close()


async def bench(args):
    from websockets.asyncio.client import connect

    payload = os.urandom(args.size)
    async with connect(args.url, compression=None, max_size=None, ping_interval=None) as websocket:
        start = time.perf_counter()
        for _ in range(args.count):
            await websocket.send(payload)
            echo = await websocket.recv()
            assert len(echo) == args.size
        elapsed = time.perf_counter() - start
    print(json.dumps({"messages_per_second": args.count / elapsed}))


def main():
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_SETMASK, set())  # a test process may start us with signals blocked
    parser = argparse.ArgumentParser(description="The websockets package as a test peer")
    parser.add_argument("command", choices=["serve", "bench"])
    parser.add_argument("url", nargs="?")
    parser.add_argument("--port-file")
    parser.add_argument("--parent-pid", type=int, default=0)
    parser.add_argument("--lifetime", type=float, default=1800)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--size", type=int, default=16)
    parser.add_argument("--venv", default=os.path.abspath(
        os.environ.get("WEBSOCKETS_VENV") or os.path.join(ROOT, ".build", "venv-websockets")))
    parser.add_argument("--in-venv", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not args.in_venv:
        venvs.ensure_venv(args.venv, PINS, log)
        python = venvs.venv_python(args.venv)
        os.execv(python, [python, os.path.abspath(__file__)] + sys.argv[1:] + ["--in-venv"])
    if args.command == "serve":
        if not args.port_file:
            parser.error("serve needs --port-file")
        asyncio.run(serve(args))
    else:
        if not args.url:
            parser.error("bench needs a URL")
        asyncio.run(bench(args))


if __name__ == "__main__":
    main()
