#!/usr/bin/env python3
"""The reproduction server of Tests/Upstream/swift-corelibs-foundation-trailers.md (stdlib only).

Usage: python3 foundation_repro_server.py [PORT]   (default 8765; 127.0.0.1 only)

Answers every request with fixed bytes, then closes the connection:
    /trailers        chunked 200, body "hello", then one trailer field (the crash)
    /no-trailers     the same without the trailer field (works)
    /no-reason       "HTTP/1.1 200" with no reason phrase (refused by Foundation)
    /lowercase-name  "Http/1.1 200 OK" (read as a 200 by Foundation)
"""

import socket
import sys
import threading

RESPONSES = {
    "/trailers": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                 b"5\r\nhello\r\n0\r\nX-Checksum: 42\r\n\r\n",
    "/no-trailers": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
    "/no-reason": b"HTTP/1.1 200\r\nContent-Length: 5\r\n\r\nhello",
    "/lowercase-name": b"Http/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
}


def answer(connection):
    with connection:
        request = b""
        while b"\r\n\r\n" not in request:
            chunk = connection.recv(4096)
            if not chunk:
                return
            request += chunk
        path = request.split(b" ", 2)[1].decode("ascii", "replace")
        connection.sendall(RESPONSES.get(path, RESPONSES["/trailers"]))


def main():
    listener = socket.create_server(("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 8765))
    while True:
        connection, _ = listener.accept()
        threading.Thread(target=answer, args=(connection,), daemon=True).start()


if __name__ == "__main__":
    main()
