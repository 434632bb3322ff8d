#!/usr/bin/env python3
"""Loopback HTTP/1.1 server for `make soak` (stdlib only, asyncio: one thread serves every keep-alive connection).

Usage: soak_server.py --port-file PATH [--parent-pid PID]

Writes its port to --port-file, then answers each request by its path, the fault the soak asks for:
    /ok?i=N            200, a JSON body {"i": N, "pad": "..."} of about 300 bytes
    /slow?i=N          the same body in four pieces, 2 ms apart
    /unavailable?i=N   the first request for N: 503 with Retry-After: 0; the next: as /ok
    /reset             the connection reset (RST) without an answer
    /truncated         200 announcing 1,000 bytes, 100 sent, then the connection closed
    /stall             no answer; the connection stays open until the client closes it
    /__stats           {"requests": R, "connections": C}: what the server has seen
Exits when --parent-pid is gone.
"""
import argparse
import asyncio
import json
import socket
import struct
import sys
from urllib.parse import parse_qs, urlsplit

from lifecycle import parent_gone, publish

PAD = "x" * 260
STATS = {"requests": 0, "connections": 0}
UNAVAILABLE_ONCE = set()


def body_for(index):
    return json.dumps({"i": index, "pad": PAD}).encode()


def head(status, reason, length, extra=b""):
    return (f"HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n"
            .encode() + extra + b"\r\n")


async def answer(path, query, writer):
    """Writes the answer for one request; returns False when the connection must end."""
    index = int(query.get("i", ["0"])[0] or 0)
    if path == "/ok" or (path == "/unavailable" and index in UNAVAILABLE_ONCE):
        UNAVAILABLE_ONCE.discard(index)
        body = body_for(index)
        writer.write(head(200, "OK", len(body)) + body)
        return True
    if path == "/unavailable":
        UNAVAILABLE_ONCE.add(index)
        body = b'{"error":"unavailable"}'
        writer.write(head(503, "Service Unavailable", len(body), b"Retry-After: 0\r\n") + body)
        return True
    if path == "/slow":
        body = body_for(index)
        writer.write(head(200, "OK", len(body)))
        quarter = len(body) // 4 + 1
        for start in range(0, len(body), quarter):
            writer.write(body[start:start + quarter])
            await writer.drain()
            await asyncio.sleep(0.002)
        return True
    if path == "/reset":
        sock = writer.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        writer.transport.abort()
        return False
    if path == "/truncated":
        writer.write(head(200, "OK", 1000) + b"y" * 100)
        await writer.drain()
        writer.close()
        return False
    if path == "/stall":
        return None
    if path == "/__stats":
        body = json.dumps(STATS).encode()
        writer.write(head(200, "OK", len(body)) + body)
        return True
    body = b'{"error":"no such route"}'
    writer.write(head(404, "Not Found", len(body)) + body)
    return True


async def serve(reader, writer):
    STATS["connections"] += 1
    try:
        while True:
            request_line = await reader.readline()
            if not request_line:
                return
            length = 0
            while True:
                line = await reader.readline()
                if line in (b"\r\n", b"\n", b""):
                    break
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip() or 0)
            if length:
                await reader.readexactly(length)
            STATS["requests"] += 1
            parts = request_line.decode("latin-1").split()
            target = urlsplit(parts[1] if len(parts) > 1 else "/")
            keep = await answer(target.path, parse_qs(target.query), writer)
            if keep is None:  # stall: wait for the client to give up and close
                await reader.read()
                return
            if not keep:
                return
            await writer.drain()
    except (ConnectionError, asyncio.IncompleteReadError):
        return
    finally:
        if not writer.transport.is_closing():
            writer.close()


async def main():
    parser = argparse.ArgumentParser(description="Loopback server for make soak")
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--parent-pid", type=int, default=0)
    args = parser.parse_args()
    server = await asyncio.start_server(serve, "127.0.0.1", 0, backlog=1024)
    port = server.sockets[0].getsockname()[1]
    publish(args.port_file, f"{port}\n")
    while True:
        await asyncio.sleep(0.5)
        if parent_gone(args.parent_pid):
            sys.exit(0)


if __name__ == "__main__":
    asyncio.run(main())
