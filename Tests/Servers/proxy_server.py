#!/usr/bin/env python3
"""A small HTTP proxy for the libcurl transport's tests (stdlib only).

Plain-HTTP requests in absolute form are forwarded (one connection each, Connection: close); CONNECT opens a
tunnel. It counts both, and answers its own counts at GET /__stats (origin form):
{"connects": N, "forwards": M, "targets": [...]}. With --credentials USER:PASSWORD it demands that
Proxy-Authorization (Basic) and answers 407 otherwise. It writes its port to --port-file and exits with --parent-pid.
"""
import argparse, base64, json, select, socket, socketserver, threading, time
from lifecycle import parent_gone, publish

LOCK = threading.Lock()
STATS = {"connects": 0, "forwards": 0, "targets": []}
CREDENTIALS = None


def count(kind, target):
    with LOCK:
        STATS[kind] += 1
        STATS["targets"].append(target)


def pipe(a, b):
    sockets = [a, b]
    while True:
        readable, _, _ = select.select(sockets, [], [], 30)
        if not readable:
            return
        for s in readable:
            data = s.recv(65536)
            if not data:
                return
            (b if s is a else a).sendall(data)


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.connection.recv(65536)
            if not chunk:
                return
            head += chunk
        head, rest = head.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        method, target, version = lines[0].split(" ", 2)
        headers = [line.split(":", 1) for line in lines[1:] if ":" in line]
        if method == "GET" and target == "/__stats":
            with LOCK:
                body = json.dumps(STATS).encode()
            self.connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                                    + str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n" + body)
            return
        if CREDENTIALS is not None:
            given = [v.strip() for k, v in headers if k.strip().lower() == "proxy-authorization"]
            wanted = "Basic " + base64.b64encode(CREDENTIALS.encode()).decode()
            if given != [wanted]:
                self.connection.sendall(b"HTTP/1.1 407 Proxy Authentication Required\r\n"
                                        b"Proxy-Authenticate: Basic realm=\"test\"\r\nContent-Length: 0\r\n"
                                        b"Connection: close\r\n\r\n")
                return
        if method == "CONNECT":
            host, port = target.rsplit(":", 1)
            count("connects", target)
            upstream = socket.create_connection((host, int(port)))
            self.connection.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
            if rest:
                upstream.sendall(rest)
            pipe(self.connection, upstream)
            upstream.close()
            return
        if not target.startswith("http://"):
            self.connection.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        count("forwards", target)
        hostport, _, path = target[len("http://"):].partition("/")
        host, _, port = hostport.partition(":")
        upstream = socket.create_connection((host, int(port or 80)))
        kept = [(k, v) for k, v in headers
                if k.strip().lower() not in ("proxy-authorization", "proxy-connection", "connection")]
        request = f"{method} /{path} {version}\r\n" + "".join(f"{k}:{v}\r\n" for k, v in kept)
        upstream.sendall(request.encode("latin-1") + b"Connection: close\r\n\r\n" + rest)
        pipe(self.connection, upstream)
        upstream.close()


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    global CREDENTIALS
    parser = argparse.ArgumentParser()
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--parent-pid", type=int)
    parser.add_argument("--credentials")
    args = parser.parse_args()
    CREDENTIALS = args.credentials
    server = Server(("127.0.0.1", 0), Handler)
    publish(args.port_file, str(server.server_address[1]))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    while True:
        time.sleep(0.5)
        if parent_gone(args.parent_pid):
            return


if __name__ == "__main__":
    main()
