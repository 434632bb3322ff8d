#!/usr/bin/env python3
"""A loopback server that reads and writes one exchange at the same time (full duplex), and sends and checks
trailer fields, over HTTP/1.1 (plain, and TLS with ALPN http/1.1) and HTTP/2 (TLS with ALPN h2).

Usage:
    python3 duplex_server.py --port-file PATH [--lifetime 1800] [--parent-pid PID]

Writes {"plain": P, "tls": T} to --port-file once both listeners are up. The TLS certificate is signed by the
run's test authority (NETWORKING_TEST_CA_DIR with ca.pem and ca.key, made by `make test`). HTTP/2 needs the
PyPI package `h2` (pinned below): without it in this interpreter the script makes a virtual environment
(.build/venv-duplex, with venvs.py as every test server that needs PyPI packages) and runs itself again there.

Routes, on every listener (the request body is read as it arrives, never collected before answering):
    /speak?key=K&count=N[&length=1][&trailers=1][&reset=1]
        answers 200 at once and sends N one-byte chunks (b"a" + i % 26), each after the client has echoed the
        previous one back in its request body; after the N-th echo it ends the response (the terminating chunk,
        with X-Checksum and X-Count trailers when trailers=1; with length=1 the response announces
        Content-Length N instead of being chunked). Then it reads the rest of the request body to its end (15 s at
        most), or on HTTP/2 with reset=1 resets the stream with NO_ERROR (RFC 9113 §8.1) instead.
    /echo?key=K
        answers 200 at once and sends back each piece of the request body as it arrives; ends the response when
        the request body ends.
    /trailers?key=K[&bytes=N]
        a chunked body of N bytes (1000) with three trailer fields: X-Checksum (the adler32 of the body, decimal),
        X-Count (N), X-Secret: s3cr3t.
    /answer-and-close?key=K
        HTTP/1.1 only: reads the first piece of the request body, answers 200 with Connection: close and a
        Content-Length, and closes with the rest of the request unread.
    /upload-trailers?key=K
        reads the whole request body, then answers {"bytes": N, "trailers": [[name, value], ...],
        "complete": bool, "protocol": "HTTP/1.1" | "HTTP/2"}.
    /__hits?key=K
        {"count": N, "requests": [{"path", "protocol", "received" (request body bytes, as latin-1 text),
        "complete" (the request body ended as its framing says), "trailers", "echoed_ok", "sent"}]} (not counted)
"""

import argparse
import json
import os
import socket
import ssl
import sys
import tempfile
import threading
import time
import zlib
from urllib.parse import parse_qs, urlsplit

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from certificates import issue  # noqa: E402
from lifecycle import parent_gone, publish  # noqa: E402
import venvs  # noqa: E402

# Verified together on Python 3.11 (Linux); h2 4.4 and hpack 4.2 need Python 3.10, so Xcode's 3.9 gets the releases
# before them (verified on 3.9 here). make portability checks that they install on each Python (httpbin_pins_check).
PINS = ["h2==4.4.1; python_version >= '3.10'", "h2==4.3.0; python_version < '3.10'",
        "hpack==4.2.0; python_version >= '3.10'", "hpack==4.1.0; python_version < '3.10'", "hyperframe==6.1.0"]
VENV = os.environ.get("DUPLEX_VENV") or os.path.join(ROOT, ".build", "venv-duplex")
TAIL_SECONDS = 15


def ensure_h2():
    """Import h2, or make the venv with the pins (venvs.py, as every test server's) and run this script again in
    it."""
    try:
        import h2  # noqa: F401
        return
    except ImportError:
        pass
    if os.environ.get("DUPLEX_REEXEC") == "1":
        sys.exit("duplex_server: h2 is still missing in " + VENV)
    venvs.ensure_venv(VENV, PINS, lambda message: print(f"duplex_server: {message}", file=sys.stderr, flush=True))
    python = venvs.venv_python(VENV)
    os.execve(python, [python, os.path.abspath(__file__)] + sys.argv[1:], dict(os.environ, DUPLEX_REEXEC="1"))


class Hits:
    def __init__(self):
        self.lock = threading.Lock()
        self.records = {}

    def add(self, key, record):
        with self.lock:
            self.records.setdefault(key, []).append(record)

    def snapshot(self, key):
        with self.lock:
            entries = [dict(entry) for entry in self.records.get(key, [])]
        return {"count": len(entries), "requests": entries}


HITS = Hits()


def new_record(path, protocol):
    return {"path": path, "protocol": protocol, "received": "", "complete": False, "trailers": [],
            "echoed_ok": None, "sent": 0}


def speak_byte(index):
    return bytes([0x61 + index % 26])


TRAILER_BODY = b"0123456789"


def trailer_body(count):
    return (TRAILER_BODY * (count // len(TRAILER_BODY) + 1))[:count]


# ------------------------------------------------------------------ HTTP/1.1

class Closed(Exception):
    pass


class H1Reader:
    """Reads an HTTP/1.1 request from a socket: its head, then its body piece by piece as it arrives."""

    def __init__(self, sock):
        self.sock = sock
        self.buffer = b""

    def more(self):
        data = self.sock.recv(65536)
        if not data:
            raise Closed()
        self.buffer += data

    def line(self):
        while b"\r\n" not in self.buffer:
            self.more()
        line, self.buffer = self.buffer.split(b"\r\n", 1)
        return line

    def exactly(self, count):
        while len(self.buffer) < count:
            self.more()
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def head(self):
        request_line = self.line()
        fields = []
        while True:
            line = self.line()
            if not line:
                break
            name, _, value = line.partition(b":")
            fields.append((name.decode("latin-1"), value.strip().decode("latin-1")))
        return request_line.decode("latin-1"), fields


class H1Body:
    """The request body as it arrives: `piece()` returns the next bytes, b"" at its end (then `trailers` holds
    the request's trailer fields and `complete` is True)."""

    def __init__(self, reader, fields):
        self.reader = reader
        names = {name.lower(): value for name, value in fields}
        self.chunked = "chunked" in names.get("transfer-encoding", "").lower()
        self.left = int(names.get("content-length", "0") or 0) if not self.chunked else None
        self.chunk_left = 0
        self.trailers = []
        self.complete = False
        self.ended = False

    def piece(self):
        if self.ended:
            return b""
        if not self.chunked:
            if self.left == 0:
                self.ended = self.complete = True
                return b""
            if not self.reader.buffer:
                self.reader.more()
            data = self.reader.buffer[:self.left]
            self.reader.buffer = self.reader.buffer[len(data):]
            self.left -= len(data)
            return data
        if self.chunk_left == 0:
            size = int(self.reader.line().split(b";")[0].strip() or b"0", 16)
            if size == 0:
                while True:
                    line = self.reader.line()
                    if not line:
                        break
                    name, _, value = line.partition(b":")
                    self.trailers.append([name.decode("latin-1"), value.strip().decode("latin-1")])
                self.ended = self.complete = True
                return b""
            self.chunk_left = size
        if not self.reader.buffer:
            self.reader.more()
        data = self.reader.buffer[:self.chunk_left]
        self.reader.buffer = self.reader.buffer[len(data):]
        self.chunk_left -= len(data)
        if self.chunk_left == 0:
            self.reader.exactly(2)  # the chunk's CRLF
        return data

    def rest(self, record, seconds=TAIL_SECONDS):
        """Reads what is left of the body into `record`, for `seconds` at most."""
        self.reader.sock.settimeout(seconds)
        try:
            while True:
                data = self.piece()
                if not data:
                    break
                record["received"] += data.decode("latin-1")
        except (Closed, OSError, ValueError):
            pass
        record["complete"] = self.complete
        record["trailers"] = self.trailers


def h1_send(sock, data):
    sock.sendall(data)


def h1_chunk(data):
    return b"%x\r\n" % len(data) + data + b"\r\n"


def serve_h1(sock, protocol="HTTP/1.1"):
    reader = H1Reader(sock)
    try:
        while True:
            request_line, fields = reader.head()
            method, target, _ = (request_line.split(" ") + ["", ""])[:3]
            parts = urlsplit(target)
            query = {k: v[-1] for k, v in parse_qs(parts.query, True).items()}
            body = H1Body(reader, fields)
            if parts.path == "/__hits":
                reply_h1(sock, 200, json.dumps(HITS.snapshot(query.get("key", ""))).encode())
                body.rest(new_record(parts.path, protocol), 1)
                continue
            record = new_record(parts.path, protocol)
            if "key" in query:
                HITS.add(query["key"], record)
            keep = H1_ROUTES.get(parts.path, h1_not_found)(sock, body, query, record)
            if not keep:
                return
    except (Closed, OSError, ValueError):
        pass
    finally:
        try:
            sock.close()
        except OSError:
            pass


def reply_h1(sock, status, body, content_type="application/json"):
    h1_send(sock, b"HTTP/1.1 %d X\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n%s"
            % (status, content_type.encode(), len(body), body))


def h1_not_found(sock, body, query, record):
    body.rest(record, 1)
    reply_h1(sock, 404, b'{"error": "no such route"}')
    return True


def h1_speak(sock, body, query, record):
    count = min(int(query.get("count", "1000") or 1000), 100_000)
    with_length = query.get("length") == "1"
    with_trailers = query.get("trailers") == "1"
    framing = b"Content-Length: %d\r\n" % count if with_length else b"Transfer-Encoding: chunked\r\n"
    h1_send(sock, b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n" + framing + b"\r\n")
    echoed = b""
    ok = True
    sock.settimeout(TAIL_SECONDS)
    for index in range(count):
        byte = speak_byte(index)
        h1_send(sock, byte if with_length else h1_chunk(byte))
        record["sent"] = index + 1
        while len(echoed) < index + 1:
            data = body.piece()
            if not data:
                break
            echoed += data
            record["received"] = echoed.decode("latin-1")
        if echoed[index:index + 1] != byte:
            ok = False
            break
    record["echoed_ok"] = ok and len(echoed) == count
    if not with_length:
        if with_trailers:
            h1_send(sock, b"0\r\nX-Checksum: %d\r\nX-Count: %d\r\n\r\n" % (zlib.adler32(echoed), count))
        else:
            h1_send(sock, b"0\r\n\r\n")
    body.rest(record)
    record["received"] = echoed.decode("latin-1") + record["received"][len(echoed):]
    return body.complete


def h1_echo(sock, body, query, record):
    h1_send(sock, b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n")
    sock.settimeout(TAIL_SECONDS)
    received = b""
    try:
        while True:
            data = body.piece()
            if not data:
                break
            received += data
            record["received"] = received.decode("latin-1")
            h1_send(sock, h1_chunk(data))
    except (Closed, OSError):
        return False
    record["complete"] = body.complete
    record["trailers"] = body.trailers
    h1_send(sock, b"0\r\n\r\n")
    return True


def h1_trailers(sock, body, query, record):
    body.rest(record, 1)
    data = trailer_body(min(int(query.get("bytes", "1000") or 1000), 1 << 20))
    h1_send(sock, b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTrailer: X-Checksum, X-Count, X-Secret\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n" + h1_chunk(data[:len(data) // 2]) + h1_chunk(data[len(data) // 2:])
            + b"0\r\nX-Checksum: %d\r\nX-Count: %d\r\nX-Secret: s3cr3t\r\n\r\n" % (zlib.adler32(data), len(data)))
    return True


def h1_upload_trailers(sock, body, query, record):
    body.rest(record)
    reply_h1(sock, 200, json.dumps({"bytes": len(record["received"]), "trailers": record["trailers"],
                                    "complete": record["complete"], "protocol": "HTTP/1.1"}).encode())
    return body.complete


def h1_answer_and_close(sock, body, query, record):
    first = body.piece()
    record["received"] = first.decode("latin-1")
    answer = b"answered before the end of the request"
    h1_send(sock, b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s"
            % (len(answer), answer))
    return False


H1_ROUTES = {"/speak": h1_speak, "/echo": h1_echo, "/trailers": h1_trailers,
             "/upload-trailers": h1_upload_trailers, "/answer-and-close": h1_answer_and_close}


# -------------------------------------------------------------------- HTTP/2

def serve_h2(sock):
    import h2.config
    import h2.connection
    import h2.events
    import h2.errors

    connection = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
    connection.initiate_connection()
    streams = {}

    def flush():
        data = connection.data_to_send()
        if data:
            sock.sendall(data)

    def start(stream_id, headers, end=False):
        connection.send_headers(stream_id, headers, end_stream=end)

    class Stream:
        def __init__(self, stream_id, path, query):
            self.id = stream_id
            self.path = path
            self.query = query
            self.record = new_record(path, "HTTP/2")
            self.received = b""
            self.response_ended = False
            if "key" in query:
                HITS.add(query["key"], self.record)
            self.count = min(int(query.get("count", "1000") or 1000), 100_000)

        def begin(self):
            if self.path == "/speak":
                headers = [(":status", "200"), ("content-type", "application/octet-stream")]
                if self.query.get("length") == "1":
                    headers.append(("content-length", str(self.count)))
                start(self.id, headers)
                self.send_speak(0)
            elif self.path == "/echo":
                start(self.id, [(":status", "200"), ("content-type", "application/octet-stream")])
            elif self.path == "/trailers":
                data = trailer_body(min(int(self.query.get("bytes", "1000") or 1000), 1 << 20))
                start(self.id, [(":status", "200"), ("content-type", "text/plain")])
                connection.send_data(self.id, data)
                connection.send_headers(self.id, [("x-checksum", str(zlib.adler32(data))),
                                                  ("x-count", str(len(data))), ("x-secret", "s3cr3t")],
                                        end_stream=True)
                self.response_ended = True

        def send_speak(self, index):
            connection.send_data(self.id, speak_byte(index))
            self.record["sent"] = index + 1

        def data(self, chunk):
            self.received += chunk
            self.record["received"] = self.received.decode("latin-1")
            if self.path == "/echo":
                connection.send_data(self.id, chunk)
            elif self.path == "/speak" and not self.response_ended:
                echoed = len(self.received)
                sent = self.record["sent"]
                if echoed >= sent:
                    ok = self.received[:sent] == b"".join(speak_byte(i) for i in range(sent))
                    if not ok or sent == self.count:
                        self.record["echoed_ok"] = ok and sent == self.count
                        self.end_response()
                    else:
                        self.send_speak(sent)

        def end_response(self):
            self.response_ended = True
            if self.query.get("trailers") == "1":
                connection.send_headers(self.id, [("x-checksum", str(zlib.adler32(self.received))),
                                                  ("x-count", str(self.count))], end_stream=True)
            else:
                connection.end_stream(self.id)
            if self.query.get("reset") == "1":
                connection.reset_stream(self.id, error_code=h2.errors.ErrorCodes.NO_ERROR)
                streams.pop(self.id, None)

        def ended(self, trailers=None):
            self.record["complete"] = True
            if trailers:
                self.record["trailers"] = trailers
            if self.path == "/echo":
                connection.end_stream(self.id)
            elif self.path == "/upload-trailers":
                body = json.dumps({"bytes": len(self.received), "trailers": self.record["trailers"],
                                   "complete": True, "protocol": "HTTP/2"}).encode()
                start(self.id, [(":status", "200"), ("content-type", "application/json"),
                                ("content-length", str(len(body)))])
                connection.send_data(self.id, body, end_stream=True)
            elif self.path == "/__hits":
                body = json.dumps(HITS.snapshot(self.query.get("key", ""))).encode()
                start(self.id, [(":status", "200"), ("content-type", "application/json")])
                connection.send_data(self.id, body, end_stream=True)
            elif self.path not in ("/speak", "/trailers", "/echo"):
                start(self.id, [(":status", "404")], end=True)

    flush()
    sock.settimeout(None)
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                return
            for event in connection.receive_data(data):
                if isinstance(event, h2.events.RequestReceived):
                    headers = dict(event.headers)
                    parts = urlsplit(headers.get(":path", "/"))
                    query = {k: v[-1] for k, v in parse_qs(parts.query, True).items()}
                    stream = Stream(event.stream_id, parts.path, query)
                    streams[event.stream_id] = stream
                    stream.begin()
                    if event.stream_ended:
                        stream.ended()
                elif isinstance(event, h2.events.DataReceived):
                    connection.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                    stream = streams.get(event.stream_id)
                    if stream and event.data:
                        stream.data(event.data)
                    if stream and event.stream_ended:
                        stream.ended()
                elif isinstance(event, h2.events.TrailersReceived):
                    stream = streams.get(event.stream_id)
                    if stream:
                        stream.ended([[name, value] for name, value in event.headers])
                elif isinstance(event, h2.events.StreamEnded):
                    stream = streams.get(event.stream_id)
                    if stream and not stream.record["complete"]:
                        stream.ended()
                elif isinstance(event, h2.events.StreamReset):
                    streams.pop(event.stream_id, None)
                elif isinstance(event, h2.events.ConnectionTerminated):
                    flush()
                    return
            flush()
    except (OSError, ValueError):
        return
    except Exception as error:  # a protocol error: log it, end the connection
        print(f"duplex_server: h2: {error!r}", file=sys.stderr)
    finally:
        try:
            sock.close()
        except OSError:
            pass


# -------------------------------------------------------------------- server

def certificate(workdir):
    """A certificate for 127.0.0.1 signed by the run's authority (with_test_ca.sh), made by certificates.py as every
    test server's is (its key's curve named, as a Mac's LibreSSL needs)."""
    ca_dir = os.environ.get("NETWORKING_TEST_CA_DIR")
    if not ca_dir:
        raise OSError("NETWORKING_TEST_CA_DIR is not set: run the tests through `make test`")
    return issue(workdir, "leaf", "/CN=127.0.0.1",
                 ["subjectAltName=IP:127.0.0.1", "basicConstraints=CA:FALSE", "extendedKeyUsage=serverAuth"], ca_dir)


def listen():
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    server.listen(256)
    return server


def accept_plain(server):
    while True:
        sock, _ = server.accept()
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        threading.Thread(target=serve_h1, args=(sock,), daemon=True).start()


def accept_tls(server, context):
    def handshake(sock):
        try:
            sock.settimeout(10)
            tls = context.wrap_socket(sock, server_side=True)
        except (ssl.SSLError, OSError):
            sock.close()
            return
        if tls.selected_alpn_protocol() == "h2":
            serve_h2(tls)
        else:
            serve_h1(tls, "HTTP/1.1")

    while True:
        sock, _ = server.accept()
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        threading.Thread(target=handshake, args=(sock,), daemon=True).start()


def main():
    parser = argparse.ArgumentParser(description="Full-duplex and trailers test server")
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--lifetime", type=float, default=1800)
    parser.add_argument("--parent-pid", type=int, default=0)
    args = parser.parse_args()
    ensure_h2()
    timer = threading.Timer(args.lifetime, os._exit, args=(0,))
    timer.daemon = True
    timer.start()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    with tempfile.TemporaryDirectory(prefix="duplex-tls-") as workdir:
        context.load_cert_chain(*certificate(workdir))
    context.set_alpn_protocols(["h2", "http/1.1"])
    plain, tls = listen(), listen()
    threading.Thread(target=accept_plain, args=(plain,), daemon=True).start()
    threading.Thread(target=accept_tls, args=(tls, context), daemon=True).start()
    publish(args.port_file, json.dumps({"plain": plain.getsockname()[1], "tls": tls.getsockname()[1]}))
    while not parent_gone(args.parent_pid):
        time.sleep(0.5)
    os._exit(0)


if __name__ == "__main__":
    main()
