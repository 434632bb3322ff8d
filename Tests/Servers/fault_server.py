#!/usr/bin/env python3
"""Fault-injection HTTP/1.1 server for the Swift HTTP client tests (stdlib only).

Usage:
    python3 fault_server.py --port-file PATH [--port 0] [--lifetime 1800] [--parent-pid PID]
                            [--hosts 127.0.0.1,127.0.0.2]

Listens on the same port on every --hosts address (loopback only; where 127.0.0.2
is not routed, as on macOS, on 127.0.0.1 alone, and "localhost" is the other
origin's name), writes the
port to --port-file once all listeners are up, exits after --lifetime seconds
or on SIGTERM/SIGINT. Routes ignore the method unless noted; HEAD always gets
the GET headers (same Content-Length) without a body. Every request carrying
?key=K is recorded (method, path, headers, raw_headers, body, and complete: whether
the body arrived whole before the connection ended) before its route runs; a request
whose body ends early gets no answer.

Bookkeeping
    /__health                      200 "ok"
    /__hits?key=K                  {"count": N, "requests": [...]} (not counted)
    /__ports                       {"alternate": P, "other": H}: a second plain
                                   listener on 127.0.0.1 with the same routes and hit
                                   log, for redirects to another port (another
                                   origin); H, another host name for this server
                                   (127.0.0.2, or localhost where it is not bound)
Normal
    /ok                            {"ok": true}
    /echo                          method, path, query, headers (names lower-cased,
                                   repeats joined), raw_headers ([name, value] as
                                   received, case kept), body as JSON; with
                                   ?status=N (200-599) answered with that status
    /status/N                      status N (200-999), body {"status": N}
    /json?size=N                   {"items": [...]} of about N bytes (1024)
    /bytes/N                       N bytes of "x"
    /204, /205                     empty responses
    /announce?status=N&length=L    status N (200-599) with Content-Length L and no
                                   body: for HEAD, 204 and 304, whose length is not
                                   a body's
    /invalid-json                  application/json body {"a": 1,,}
    /non-utf8                      text/plain; charset=utf-8 with invalid bytes
    /html                          a small HTML page
    /delay-ms/N                    sleep N ms, then {"delayed_ms": N}
    /hold?ms=N&key=K               wait up to N ms (2000), then {"held_ms": N}; if the
                                   client closes the connection first, record a hit
                                   under K/closed and stop
    /headers-delay-ms/N            same as /delay-ms/N
Stateful
    /upload-digest                 {"bytes": N, "adler32": sum, "content_length": header} of the body
    /flaky/N/CODE?key=K[&retry_after=V]  first N hits answer CODE (+Retry-After V)
    /auth?key=K&token=T            200 with "Authorization: Bearer T", else 401
    /cacheable?key=K[&max_age=N][&etag=E][&vary=H][&cache_control=C]
                                   200 {"hit": n, "vary": <request's H>} with
                                   Cache-Control: max-age=N (or C verbatim), ETag "E",
                                   Vary: H; 304 (same headers) when If-None-Match
                                   lists "E"
    /concurrent-ms/N?key=K         sleep N ms while counting K's requests in
                                   progress: {"in_flight": at start, "max_in_flight"}
    /slow-first?key=K&ms=N         the first hit of K sleeps N ms, later hits
                                   answer at once: {"attempt": n, "slow": bool}
    /whoami?key=K[&gate=G][&cache_control=C]
                                   {"user": U, "hit": n}: U from "Authorization: Bearer U",
                                   else X-API-Key, else the cookie "user", else
                                   "anonymous"; Cache-Control C (max-age=60); with a
                                   gate, waits until /__release?gate=G (at most 15 s)
    /__release?gate=G              opens gate G (not counted)
Redirects
    /redirect-loop                 302 to itself, forever
    /redirect/N                    302 to /redirect/N-1; /redirect/0 answers 200
    /redirect-to?url=U&status=302  that status with Location U, verbatim
    /cross-origin?key=K            302 to /echo on the other host name (see
                                   /__ports) with the same query; reached by that
                                   name: /echo
    /cookie-redirect?key=K&to=U    302 to U (verbatim) with "Set-Cookie: fault=K; Path=/"
    /set-cookies?case=C            200 with raw Set-Cookie fields: ctl ("ctl=a\x01b" and
                                   "ok=1"), comma (one field "x=1, session=evil"), expires
                                   ("a=1; Expires=Wed, 09 Jun 2100 10:18:14 GMT" and "b=2")
Socket faults
    /stall?ms=N                    read the request, send nothing, close (10000)
    /stall-before-read?ms=N        sleep before reading the request, then close
                                   (peeked, not consumed; see FaultHandler.handle)
    /slow-headers?ms=N             status line, sleep N ms, rest of response
    /drip?chunks=N&ms=M            Content-Length N, one byte every M ms (typed, see
                                   STREAMED_TYPE, as /endless and /trickle)
    /close-before-response         close without sending a byte
    /close-mid-body                Content-Length 1000, 100 bytes, close
    /truncated                     Content-Length 100, 10 bytes, close
    /overlong                      Content-Length 10, 20 bytes, close
    /bad-chunked                   chunked with an invalid chunk-size line
    /chunked-no-terminator         one valid chunk, then close
    /endless                       64 KiB chunks until the client leaves (30 s)
    /huge-header?kb=N              one X-Huge header of N KiB (200)
    /garbage-status                "HTP/1.1 2147483648 Nope", then close
    /no-length-close               body framed by EOF (Connection: close)
    /keepalive-close               keep-alive response, then drop the socket
    /gzip                          gzip-encoded {"gzipped": true}
    /gzip-bomb                     Content-Encoding: gzip, ~64 KB on the wire that
                                   inflate to 64 MiB of zeros (built at start)
    /informational?code=C&count=N  N raw "C" interim responses (103 with a Link
                                   header, or 100 Continue), then a 200 JSON
    /malformed-header?kind=K       raw 200 with a 10-byte JSON body and a broken
                                   header, then close: no-colon, empty-name,
                                   two-lengths (5, then 10), two-lengths-last-shorter
                                   (10, then 5), length-list (one field "10, 4"),
                                   length-list-same (one field "10, 10": valid)
    /status-line?kind=K            raw response with the 10-byte JSON body under the
                                   status line K, then close: lowercase-name
                                   ("Http/1.1 200 OK"), no-reason ("HTTP/1.1 200"),
                                   empty-reason ("HTTP/1.1 200 ")
    /with-trailers?announce=A&late_ms=N
                                   chunked 200 "hello trailers" followed by three
                                   trailer fields, then close; announce=1 names them
                                   in a Trailer field; late_ms=N sends the last chunk
                                   and the trailers N ms after the body; then records
                                   a hit under K/trailers-sent
TLS (self-signed certificate made with the openssl command at start)
    /__tls                         on the plain listener: {"port": P, "connections":
                                   N, "handshakes": {"ok": A, "failed": B}}, or 503
                                   with the reason when there is no TLS listener;
                                   waits up to 10 s for the listener to come up
    https://127.0.0.1:P/...        the same routes, once a client trusts the cert
    /__tls-trusted                 the same for a second TLS listener whose certificate
                                   the run's test authority signed (NETWORKING_TEST_CA_DIR
                                   with ca.pem and ca.key, made by make test), or 503
    /__tls-mutual13, /__tls-mutual12
                                   the same for listeners that demand a client
                                   certificate the run's authority signed, TLS 1.3
                                   only and TLS 1.2 only; their JSON also carries
                                   "identities": {"signed": {"certificate", "key"},
                                   "stranger": {...}} as PEM, one identity the
                                   authority signed and one it did not

Every stall is capped at MAX_STALL_MS so handler threads always finish.
"""

import argparse
import errno
import gzip
import json
import os
import re
import select
import signal
import socket
import socketserver
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit
from certificates import issue
from lifecycle import TLS13, find_python, parent_gone, publish

MAX_STALL_MS = 30_000
ROUTES = []


def route(pattern):
    """Register a route function for a full-match path regex."""
    def register(fn):
        ROUTES.append((re.compile(pattern), fn))
        return fn
    return register


class HitLog:
    """Thread-safe per-key request counter and recorder."""

    def __init__(self):
        self._lock = threading.Lock()
        self._records = {}

    def record(self, key, entry):
        with self._lock:
            entries = self._records.setdefault(key, [])
            entries.append(entry)
            return len(entries)

    def snapshot(self, key):
        with self._lock:
            entries = list(self._records.get(key, []))
        return {"count": len(entries), "requests": entries}


HITS = HitLog()


def capped_ms(value, default):
    try:
        ms = int(value)
    except (TypeError, ValueError):
        ms = default
    return max(0, min(ms, MAX_STALL_MS))


# ---------------------------------------------------------------- bookkeeping
@route(r"/__health")
def health(h):
    h.reply(200, b"ok", "text/plain")

@route(r"/__hits")
def hits(h):
    h.reply_json(200, HITS.snapshot(h.query.get("key", "")))

@route(r"/__ports")
def ports(h):
    h.reply_json(200, {"alternate": ALTERNATE_PORT[0], "other": OTHER_HOST[0]})

@route(r"/__tls")
def tls_info(h):
    tls_report(h, TLS)

@route(r"/__tls-trusted")
def trusted_tls_info(h):
    tls_report(h, TRUSTED_TLS)

@route(r"/__tls-mutual13")
def mutual13_tls_info(h):
    tls_report(h, MUTUAL_TLS13)

@route(r"/__tls-mutual12")
def mutual12_tls_info(h):
    tls_report(h, MUTUAL_TLS12)

def tls_report(h, state):
    if not state.ready.wait(10):
        return h.reply_json(503, {"error": "TLS listener not up within 10 s"})
    if state.error:
        return h.reply_json(503, {"error": state.error})
    h.reply_json(200, state.snapshot())


# --------------------------------------------------------------------- normal
@route(r"/ok")
def ok(h):
    h.reply_json(200, {"ok": True})

@route(r"/echo")
def echo(h):
    code = int(h.query.get("status", "200") or 200)
    if not 200 <= code <= 599:
        return h.reply_json(400, {"error": "status must be 200-599"})
    h.reply_json(code, {"method": h.command, "path": h.route_path,
                       "query": h.query, "headers": h.header_dict(),
                       "raw_headers": [[name, value] for name, value in h.headers.items()],
                       "body": h.body.decode("utf-8", errors="replace")})

@route(r"/upload-digest")
def upload_digest(h):
    h.reply_json(200, {"bytes": len(h.body), "adler32": zlib.adler32(h.body),
                       "content_length": h.headers.get("Content-Length"),
                       "content_type": h.headers.get("Content-Type")})

@route(r"/status/(\d+)")
def status(h, code):
    code = int(code)
    if not 200 <= code <= 999:
        return h.reply_json(400, {"error": "status must be 200-999"})
    h.reply_json(code, {"status": code})

@route(r"/json")
def sized_json(h):
    size = min(int(h.query.get("size", "1024") or 0), 64 << 20)
    item = {"id": 0, "name": "item", "pad": "abcdefghijklmnopqrstuvwxyz"}
    per_item = len(json.dumps(item)) + 2  # ", " separator
    count = max(0, (size - len('{"items": []}')) // per_item)
    items = [dict(item, id=i) for i in range(count)]
    h.reply_json(200, {"items": items})

@route(r"/bytes/(\d+)")
def some_bytes(h, n):
    n = min(int(n), 1 << 30)
    h.send_response(200)
    h.send_header("Content-Type", "application/octet-stream")
    h.send_header("Content-Length", str(n))
    h.end_headers()
    if h.command == "HEAD":
        return
    block = b"x" * 65536
    while n > 0:
        h.wfile.write(block[:n])
        n -= len(block)

@route(r"/(204|205)")
def empty(h, code):
    h.reply(int(code))

@route(r"/announce")
def announce(h):
    code = int(h.query.get("status", "200") or 200)
    length = int(h.query.get("length", "0") or 0)
    h.send_response(code)
    h.send_header("Content-Length", str(length))
    h.end_headers()

@route(r"/invalid-json")
def invalid_json(h):
    h.reply(200, b'{"a": 1,,}', "application/json")

@route(r"/non-utf8")
def non_utf8(h):
    h.reply(200, b"\xff\xfe\xfa bad", "text/plain; charset=utf-8")

@route(r"/html")
def html(h):
    page = b"<!doctype html><html><head><title>fault</title></head>" \
           b"<body><p>hello</p></body></html>"
    h.reply(200, page, "text/html; charset=utf-8")

@route(r"/(?:headers-)?delay-ms/(\d+)")
def delay(h, ms):
    ms = capped_ms(ms, 0)
    time.sleep(ms / 1000)
    h.reply_json(200, {"delayed_ms": ms})


@route(r"/hold")
def hold(h):
    ms = capped_ms(h.query.get("ms"), 2_000)
    deadline = time.monotonic() + ms / 1000
    while time.monotonic() < deadline:
        readable, _, _ = select.select([h.connection], [], [], 0.01)
        if readable:
            try:
                closed = h.connection.recv(1, socket.MSG_PEEK) == b""
            except OSError:
                closed = True
            if closed:
                if "key" in h.query:
                    HITS.record(h.query["key"] + "/closed", {
                        "method": h.command, "path": h.route_path, "headers": {},
                        "raw_headers": [], "body": ""})
                h.close_connection = True
                return
            time.sleep(0.01)  # a pipelined byte, not a close: keep holding
    h.reply_json(200, {"held_ms": ms})


# ------------------------------------------------------------------- stateful
IN_PROGRESS_LOCK = threading.Lock()
IN_PROGRESS = {}  # key -> [now, highest]


@route(r"/concurrent-ms/(\d+)")
def concurrent(h, ms):
    key = h.query.get("key", "")
    with IN_PROGRESS_LOCK:
        counts = IN_PROGRESS.setdefault(key, [0, 0])
        counts[0] += 1
        counts[1] = max(counts[1], counts[0])
        at_start = counts[0]
    try:
        time.sleep(capped_ms(ms, 0) / 1000)
    finally:
        with IN_PROGRESS_LOCK:
            counts[0] -= 1
            highest = counts[1]
    h.reply_json(200, {"in_flight": at_start, "max_in_flight": highest})


@route(r"/slow-first")
def slow_first(h):
    if h.attempt is None:
        return h.reply_json(400, {"error": "slow-first needs ?key="})
    slow = h.attempt == 1
    if slow:
        time.sleep(capped_ms(h.query.get("ms"), 3000) / 1000)
    h.reply_json(200, {"attempt": h.attempt, "slow": slow})

GATES_LOCK = threading.Lock()
GATES = {}  # name -> threading.Event


def gate_event(name):
    with GATES_LOCK:
        return GATES.setdefault(name, threading.Event())


@route(r"/__release")
def release(h):
    gate_event(h.query.get("gate", "")).set()
    h.reply_json(200, {"released": True})


@route(r"/whoami")
def whoami(h):
    if "gate" in h.query:
        gate_event(h.query["gate"]).wait(timeout=15)
    authorization = h.headers.get("Authorization") or ""
    cookies = dict(
        part.strip().split("=", 1) for part in (h.headers.get("Cookie") or "").split(";") if "=" in part)
    if authorization.startswith("Bearer "):
        user = authorization[len("Bearer "):]
    else:
        user = h.headers.get("X-API-Key") or cookies.get("user") or "anonymous"
    extra = {"Cache-Control": h.query.get("cache_control", "max-age=60")}
    h.reply_json(200, {"user": user, "hit": h.attempt}, extra)


@route(r"/flaky/(\d+)/(\d+)")
def flaky(h, failures, code):
    if h.attempt is None:
        return h.reply_json(400, {"error": "flaky needs ?key="})
    if h.attempt > int(failures):
        return h.reply_json(200, {"attempt": h.attempt, "ok": True})
    extra = {}
    if "retry_after" in h.query:
        extra["Retry-After"] = h.query["retry_after"]
    h.reply_json(int(code), {"attempt": h.attempt}, extra)

@route(r"/auth")
def auth(h):
    expected = "Bearer " + h.query.get("token", "")
    if h.headers.get("Authorization") == expected:
        return h.reply_json(200, {"authorized": True})
    h.reply_json(401, {"authorized": False}, {"WWW-Authenticate": "Bearer"})


@route(r"/cacheable")
def cacheable(h):
    extra = {}
    if "cache_control" in h.query:
        extra["Cache-Control"] = h.query["cache_control"]
    elif "max_age" in h.query:
        extra["Cache-Control"] = "max-age=%d" % int(h.query["max_age"])
    etag = '"%s"' % h.query["etag"] if "etag" in h.query else None
    if etag:
        extra["ETag"] = etag
    vary = h.query.get("vary")
    if vary:
        extra["Vary"] = vary
    listed = [t.strip() for t in (h.headers.get("If-None-Match") or "").split(",")]
    if etag and (etag in listed or "W/" + etag in listed or "*" in listed):
        return h.reply(304, b"", None, extra)
    h.reply_json(200, {"hit": h.attempt, "vary": h.headers.get(vary) if vary else None}, extra)


SET_COOKIE_CASES = {
    "ctl": ["ctl=a\x01b; Path=/", "ok=1; Path=/"],
    "comma": ["x=1, session=evil; Path=/"],
    "expires": ["a=1; Expires=Wed, 09 Jun 2100 10:18:14 GMT; Path=/", "b=2; Path=/"],
    "bad-dates": ["date=1; Expires=soon", "age=1; Max-Age=forever", "ok=1", "day=1; Expires=Wed"],
}


@route(r"/set-cookies")
def set_cookies(h):
    body = b'{"set": true}'
    h.send_response(200)
    for value in SET_COOKIE_CASES.get(h.query.get("case", ""), []):
        h.send_header("Set-Cookie", value)
    h.send_header("Content-Type", "application/json")
    h.send_header("Content-Length", str(len(body)))
    h.end_headers()
    h.wfile.write(body)


# ------------------------------------------------------------------ redirects
@route(r"/redirect-loop")
def redirect_loop(h):
    h.redirect(302, h.path)

@route(r"/redirect/(\d+)")
def redirect_chain(h, n):
    n = int(n)
    if n == 0:
        return h.reply_json(200, {"redirected": True})
    h.redirect(302, f"/redirect/{n - 1}" + h.query_suffix())

@route(r"/redirect-to")
def redirect_to(h):
    h.redirect(int(h.query.get("status", "302") or 302), h.query.get("url", ""))

@route(r"/cross-origin")
def cross_origin(h):
    port = h.connection.getsockname()[1]
    if h.headers.get("Host", "").rsplit(":", 1)[0] != OTHER_HOST[0]:
        return h.redirect(302, f"http://{OTHER_HOST[0]}:{port}/echo" + h.query_suffix())
    echo(h)


@route(r"/cookie-redirect")
def cookie_redirect(h):
    target = h.query.get("to", "/echo")
    value = h.query.get("key", "none")
    h.reply_json(302, {"location": target}, {"Location": target, "Set-Cookie": f"fault={value}; Path=/"})


# -------------------------------------------------------------- socket faults
OK_LINE = b"HTTP/1.1 200 OK\r\n"
CHUNKED_HEAD = OK_LINE + b"Transfer-Encoding: chunked\r\n\r\n"
# The type of a body the tests read as it arrives. Apple's loader holds back the head and the first bytes of a body
# without a Content-Type (or a generic one, such as httpbin's application/octet-stream) until 512 bytes have come,
# to sniff the type; application/json is the type reported to pass at once (developer.apple.com/forums/thread/64875,
# not documented; not checked on a Mac here). The bytes are not JSON: no test decodes them.
STREAMED_TYPE = b"Content-Type: application/json\r\nX-Content-Type-Options: nosniff\r\n"
STREAMED_CHUNKED_HEAD = OK_LINE + STREAMED_TYPE + b"Transfer-Encoding: chunked\r\n\r\n"

@route(r"/stall")
def stall(h):
    time.sleep(capped_ms(h.query.get("ms"), 10_000) / 1000)
    h.close_connection = True

@route(r"/stall-before-read")
def stall_before_read(h):
    # The first request on a connection is stalled unread in
    # FaultHandler.handle; a later one on a reused connection has already
    # been read by the time it gets here, so it degrades to /stall.
    stall(h)

@route(r"/slow-headers")
def slow_headers(h):
    body = b'{"slow_headers": true}'
    h.raw(OK_LINE)
    time.sleep(capped_ms(h.query.get("ms"), 2_000) / 1000)
    h.raw(b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
          % (len(body), body))

@route(r"/drip")
def drip(h):
    chunks = max(0, int(h.query.get("chunks", "10") or 0))
    pause = capped_ms(h.query.get("ms"), 100) / 1000
    deadline = time.monotonic() + MAX_STALL_MS / 1000
    h.raw(OK_LINE + STREAMED_TYPE + b"Content-Length: %d\r\n\r\n" % chunks)
    for _ in range(chunks):
        if time.monotonic() > deadline or not h.raw(b"x"):
            h.close_connection = True
            return
        time.sleep(pause)

@route(r"/close-before-response")
def close_before_response(h):
    h.close_connection = True

@route(r"/close-mid-body")
def close_mid_body(h):
    h.raw_then_close(OK_LINE + b"Content-Length: 1000\r\n\r\n" + b"x" * 100)

@route(r"/truncated")
def truncated(h):
    h.raw_then_close(OK_LINE + b"Content-Length: 100\r\n\r\n" + b"x" * 10)

@route(r"/overlong")
def overlong(h):
    # Content-Length 10, then 20 bytes: the last 10 must never be read as body (nor as the next response).
    h.raw_then_close(OK_LINE + b"Content-Length: 10\r\n\r\n" + b"y" * 10 + b"z" * 10)

@route(r"/bad-chunked")
def bad_chunked(h):
    h.raw_then_close(CHUNKED_HEAD + b"zz\r\n%%garbage%%\r\n")

@route(r"/chunked-no-terminator")
def chunked_no_terminator(h):
    h.raw_then_close(CHUNKED_HEAD + b"5\r\nhello\r\n")

@route(r"/endless")
def endless(h):
    """A chunked body sent as fast as the client takes it, for `ms` (default and cap MAX_STALL_MS) or until the
    client goes away."""
    chunk = b"10000\r\n" + b"x" * 0x10000 + b"\r\n"
    deadline = time.monotonic() + capped_ms(h.query.get("ms"), MAX_STALL_MS) / 1000
    h.raw(STREAMED_CHUNKED_HEAD)
    while time.monotonic() < deadline and h.raw(chunk):
        pass
    h.close_connection = True

@route(r"/huge-header")
def huge_header(h):
    kb = min(int(h.query.get("kb", "200") or 0), 16 * 1024)
    h.reply_json(200, {"header_kb": kb}, {"X-Huge": "h" * (kb * 1024)})

@route(r"/garbage-status")
def garbage_status(h):
    h.raw_then_close(b"HTP/1.1 2147483648 Nope\r\n\r\n")

@route(r"/no-length-close")
def no_length_close(h):
    body = b"" if h.command == "HEAD" else b"body framed by connection close"
    h.raw_then_close(OK_LINE + b"Content-Type: text/plain\r\n"
                     b"Connection: close\r\n\r\n" + body)

@route(r"/keepalive-close")
def keepalive_close(h):
    # Advertise keep-alive, then drop the connection 50 ms later; a request
    # the client sends on it meanwhile is never answered (stale pooled socket).
    h.reply_json(200, {"keepalive_close": True}, {"Connection": "keep-alive"})
    time.sleep(0.05)
    h.close_connection = True

@route(r"/gzip")
def gzipped(h):
    body = gzip.compress(json.dumps({"gzipped": True}).encode())
    h.reply(200, body, "application/json", {"Content-Encoding": "gzip"})


@route(r"/unknown-coding")
def unknown_coding(h):
    """A body in a content coding no client decodes (RFC 9110 §8.4.1: it must reach the caller as sent)."""
    h.reply(200, b"\x00raw-bytes\xff", "application/octet-stream", {"Content-Encoding": "x-unheard-of"})


GZIP_BOMB_SIZE = 64 << 20


def make_gzip_bomb():
    """GZIP_BOMB_SIZE zeros, gzip-compressed a MiB at a time (about 64 KB)."""
    deflate = zlib.compressobj(9, zlib.DEFLATED, 31)  # wbits 31: gzip container
    zeros = bytes(1 << 20)
    parts = [deflate.compress(zeros) for _ in range(GZIP_BOMB_SIZE >> 20)]
    return b"".join(parts) + deflate.flush()


GZIP_BOMB = make_gzip_bomb()

@route(r"/gzip-bomb")
def gzip_bomb(h):
    h.reply(200, GZIP_BOMB, "application/octet-stream",
            {"Content-Encoding": "gzip", "X-Inflated-Size": str(GZIP_BOMB_SIZE)})

INTERIM = {100: b"HTTP/1.1 100 Continue\r\n\r\n",
           103: b"HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n"}

@route(r"/informational")
def informational(h):
    code = int(h.query.get("code", "103") or 103)
    if code not in INTERIM:
        return h.reply_json(400, {"error": "code must be 100 or 103"})
    count = max(1, min(int(h.query.get("count", "1") or 1), 10))
    body = json.dumps({"final": True, "interim": code}).encode()
    h.raw(INTERIM[code] * count + OK_LINE + b"Content-Type: application/json\r\n"
          b"Content-Length: %d\r\n\r\n%s" % (len(body), body))

MALFORMED_HEADERS = {
    "no-colon": b"X-Broken header line without a colon\r\nContent-Length: 10\r\n",
    "empty-name": b": value with no name\r\nContent-Length: 10\r\n",
    "two-lengths": b"Content-Length: 5\r\nContent-Length: 10\r\n",
    "two-lengths-last-shorter": b"Content-Length: 10\r\nContent-Length: 5\r\n",
    "length-list": b"Content-Length: 10, 4\r\n",
    "length-list-same": b"Content-Length: 10, 10\r\n",
}

@route(r"/malformed-header")
def malformed_header(h):
    kind = h.query.get("kind", "")
    if kind not in MALFORMED_HEADERS:
        return h.reply_json(400, {"error": "kind must be one of " + ", ".join(MALFORMED_HEADERS)})
    h.raw_then_close(OK_LINE + b"Content-Type: application/json\r\n" + MALFORMED_HEADERS[kind]
                     + b'Connection: close\r\n\r\n{"a": 123}')  # a 10-byte body

STATUS_LINES = {
    "lowercase-name": b"Http/1.1 200 OK",  # RFC 9112 §2.3: HTTP-name is case-sensitive, so not a status line
    "no-reason": b"HTTP/1.1 200",  # RFC 9112 §4: the reason phrase is optional (and its space, for robustness)
    "empty-reason": b"HTTP/1.1 200 ",
}

@route(r"/status-line")
def status_line(h):
    kind = h.query.get("kind", "")
    if kind not in STATUS_LINES:
        return h.reply_json(400, {"error": "kind must be one of " + ", ".join(STATUS_LINES)})
    h.raw_then_close(STATUS_LINES[kind] + b"\r\nContent-Type: application/json\r\nContent-Length: 10\r\n"
                     b'Connection: close\r\n\r\n{"a": 123}')

TRAILER_NAMES = b"X-Checksum, X-Record-Count, X-Note"
TRAILER_SECTION = b"X-Checksum: 9e4a7c1d\r\nX-Record-Count: 1\r\nX-Note: done\r\n"

@route(r"/with-trailers")
def with_trailers(h):
    """A chunked body followed by a trailer section (RFC 9112 §7.1.2): what ends the process inside Linux's
    Foundation (Tests/README.md L17). The last chunk and the trailers go in the same write as the body, or
    late_ms later (the transport then has time to refuse a head that announced them)."""
    late = capped_ms(h.query.get("late_ms", "0"), 0) / 1000
    head = OK_LINE + b"Content-Type: text/plain\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n"
    if h.query.get("announce") == "1":
        head += b"Trailer: " + TRAILER_NAMES + b"\r\n"
    body = b"hello trailers"
    first = head + b"\r\n" + b"%x\r\n" % len(body) + body + b"\r\n"
    end = b"0\r\n" + TRAILER_SECTION + b"\r\n"
    if late:
        h.raw(first)
        time.sleep(late)
        h.raw_then_close(end)
    else:
        h.raw_then_close(first + end)
    if "key" in h.query:  # the trailer section is on its way (or the client had gone): K/trailers-sent
        HITS.record(h.query["key"] + "/trailers-sent", {
            "method": h.command, "path": h.route_path, "headers": {}, "raw_headers": [], "body": ""})


# ------------------------------------------------------ streamed responses
# /trickle?key=K&chunks=N&bytes=B&ms=M  N chunks of B bytes (chunked), M ms apart; records in /__trickle?of=K
#                                       the bytes written and whether the client closed the connection early
# /sse?count=N&ms=M[&cut=C]            N Server-Sent Events (text/event-stream), M ms apart; a first
#                                       connection ends after C (and starts with a 600-byte comment line);
#                                       Last-Event-ID: I resumes at I+1
# /resumable/N?key=K&cut=C&etag=E       N bytes (byte i is i % 251) with ETag E; honours Range and If-Range
#                                       (206 with Content-Range); a first full answer stops after C bytes
TRICKLE = {}
TRICKLE_LOCK = threading.Lock()

def trickle_update(key, **changes):
    with TRICKLE_LOCK:
        TRICKLE.setdefault(key, {"written": 0, "closed": False, "finished": False}).update(changes)

@route(r"/__trickle")
def trickle_stats(h):
    with TRICKLE_LOCK:
        stats = dict(TRICKLE.get(h.query.get("of", ""), {"written": 0, "closed": False, "finished": False}))
    h.reply_json(200, stats)

@route(r"/trickle")
def trickle(h):
    key = h.query.get("key", "")
    chunks = min(int(h.query.get("chunks", "10") or 10), 100_000)
    size = min(int(h.query.get("bytes", "1024") or 1024), 1 << 20)
    pause = capped_ms(h.query.get("ms", "0"), 0) / 1000
    h.raw(STREAMED_CHUNKED_HEAD)
    written = 0
    trickle_update(key, written=0)
    for _ in range(chunks):
        if not h.raw(b"%x\r\n" % size + b"t" * size + b"\r\n"):
            trickle_update(key, closed=True)
            h.close_connection = True
            return
        written += size
        trickle_update(key, written=written)
        if pause:
            time.sleep(pause)
    if not h.raw(b"0\r\n\r\n"):
        trickle_update(key, closed=True)
    trickle_update(key, finished=True)
    h.close_connection = True

@route(r"/sse")
def sse(h):
    count = min(int(h.query.get("count", "3") or 3), 10_000)
    pause = capped_ms(h.query.get("ms", "0"), 0) / 1000
    # A reconnection resumes after its Last-Event-ID; a first connection may be cut after `cut` events.
    last = h.headers.get("Last-Event-ID")
    start = int(last) + 1 if last and last.isdigit() else 0
    end = count if last is not None else min(count, int(h.query.get("cut", str(count)) or count))
    h.raw(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nX-Content-Type-Options: nosniff\r\n"
          b"Cache-Control: no-cache\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
    if end < count:
        # A connection to be cut starts with a comment line (ignored by every event-stream reader) longer than the
        # 512 bytes Apple's loader may hold back to sniff a type: the events before the cut are then passed on, not
        # held in a buffer the cut could drop.
        comment = b": " + b"-" * 600 + b"\n\n"
        h.raw(b"%x\r\n" % len(comment) + comment + b"\r\n")
    for i in range(start, end):
        event = b"id: %d\nevent: tick\ndata: {\"n\": %d}\n\n" % (i, i)
        if not h.raw(b"%x\r\n" % len(event) + event + b"\r\n"):
            return
        if pause:
            time.sleep(pause)
    h.raw(b"0\r\n\r\n")
    h.close_connection = True

def resumable_bytes(start, end):
    return bytes(i % 251 for i in range(start, end))

@route(r"/resumable/(\d+)")
def resumable(h, n):
    n = min(int(n), 64 << 20)
    etag = '"%s"' % (h.query.get("etag", "v1") or "v1")
    cut = int(h.query.get("cut", "-1") or -1)
    wanted = h.headers.get("Range")
    condition = h.headers.get("If-Range")
    match = re.fullmatch(r"bytes=(\d+)-", wanted or "")
    if match and (condition is None or condition == etag):
        start = int(match.group(1))
        if start >= n:
            h.send_response(416)
            h.send_header("Content-Range", "bytes */%d" % n)
            h.send_header("Content-Length", "0")
            h.end_headers()
            return
        h.send_response(206)
        h.send_header("Content-Range", "bytes %d-%d/%d" % (start, n - 1, n))
        h.send_header("Content-Length", str(n - start))
        h.send_header("ETag", etag)
        h.end_headers()
        h.wfile.write(resumable_bytes(start, n))
        return
    h.send_response(200)
    h.send_header("Content-Length", str(n))
    h.send_header("ETag", etag)
    h.send_header("Accept-Ranges", "bytes")
    h.end_headers()
    if 0 <= cut < n:
        h.wfile.write(resumable_bytes(0, cut))
        h.wfile.flush()
        h.close_connection = True
        return
    h.wfile.write(resumable_bytes(0, n))


# -------------------------------------------------------------------- handler

class FaultHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Small keep-alive responses would otherwise wait ~40 ms for Nagle and delayed ACKs.
    disable_nagle_algorithm = True
    timeout = 120  # idle keep-alive connections must not pin threads forever

    def log_message(self, format, *args):
        pass

    def end_headers(self):
        # RFC 9112 §9.6: a server answering a request that asked to close says so, or the client may pool the
        # connection and reuse it as it dies (nginx does this; BaseHTTPRequestHandler does not).
        if (self.headers.get("Connection") or "").lower() == "close" and not self._closes_announced():
            self.send_header("Connection", "close")
        super().end_headers()

    def _closes_announced(self):
        return any(line.lower().startswith(b"connection:") for line in getattr(self, "_headers_buffer", []))

    def __getattr__(self, name):
        if name.startswith("do_"):  # accept every method, including odd ones
            return self.dispatch
        raise AttributeError(name)

    def handle(self):
        if self.intercept_stall_before_read():
            return
        super().handle()

    def peek_until(self, marker):
        """Peek at unread request bytes until marker shows up (1 s at most)."""
        deadline = time.monotonic() + 1.0
        data = self.connection.recv(65536, socket.MSG_PEEK)
        while (data and marker not in data and len(data) < 65536
               and time.monotonic() < deadline):
            time.sleep(0.005)
            data = self.connection.recv(65536, socket.MSG_PEEK)
        return data

    def intercept_stall_before_read(self):
        """Stall a connection's first request unread if it is /stall-before-read."""
        try:
            request_line = self.peek_until(b"\n").split(b"\r\n", 1)[0]
            method, target = (request_line.decode("latin-1").split(" ") + [""])[:2]
            parts = urlsplit(target)
            if parts.path != "/stall-before-read":
                return False
            head = self.peek_until(b"\r\n\r\n").decode("latin-1")
        except OSError:  # idle timeout or reset: nothing worth serving
            self.close_connection = True
            return True
        query = {k: v[-1] for k, v in parse_qs(parts.query, True).items()}
        if "key" in query:
            headers = {}
            for line in head.split("\r\n")[1:]:
                if ":" in line:
                    name, value = line.split(":", 1)
                    headers[name.strip().lower()] = value.strip()
            HITS.record(query["key"], {"method": method, "path": parts.path,
                                       "headers": headers, "raw_headers": [], "body": ""})
        time.sleep(capped_ms(query.get("ms"), 10_000) / 1000)
        self.close_connection = True
        return True

    def dispatch(self):
        parts = urlsplit(self.path)
        self.route_path = parts.path
        self.raw_query = parts.query
        self.query = {k: v[-1] for k, v in parse_qs(parts.query, True).items()}
        try:
            self.body = self.read_body()
        except ValueError:
            self.close_connection = True
            return self.reply_json(400, {"error": "malformed request body"})
        self.attempt = None
        if "key" in self.query and self.route_path != "/__hits":
            self.attempt = HITS.record(self.query["key"], {
                "method": self.command, "path": self.route_path,
                "headers": self.header_dict(),
                "raw_headers": [[name, value] for name, value in self.headers.items()],
                "body": self.body.decode("utf-8", errors="replace"), "complete": self.body_complete})
        if not self.body_complete:
            self.close_connection = True
            return  # the client left mid-body: there is nobody to answer
        for pattern, fn in ROUTES:
            match = pattern.fullmatch(self.route_path)
            if match:
                try:
                    return fn(self, *match.groups())
                except ValueError as error:  # malformed numeric parameter
                    return self.reply_json(400, {"error": str(error)})
        self.reply_json(404, {"error": "no such route", "path": self.route_path})

    def read_body(self):
        """The request body; sets body_complete to whether it arrived whole (its Content-Length, or the chunked
        terminator) before the connection ended."""
        self.body_complete = True
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            body = b""
            while True:
                line = self.rfile.readline()
                if not line:
                    self.body_complete = False
                    return body
                size = int(line.split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while True:  # skip trailers
                        trailer = self.rfile.readline()
                        if trailer in (b"\r\n", b"\n"):
                            return body
                        if not trailer:
                            self.body_complete = False
                            return body
                data = self.rfile.read(size)
                body += data
                if len(data) < size:
                    self.body_complete = False
                    return body
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length > 0 else b""
        self.body_complete = len(body) == max(length, 0)
        return body

    def header_dict(self):
        merged = {}
        for name, value in self.headers.items():
            name = name.lower()
            merged[name] = f"{merged[name]}, {value}" if name in merged else value
        return merged

    def query_suffix(self):
        return "?" + self.raw_query if self.raw_query else ""

    def reply(self, status, body=b"", content_type=None, headers=None):
        """Send a complete response; HEAD and 204/205/304 get no body."""
        bodiless = status in (204, 205, 304)
        self.send_response(status)
        if content_type and not bodiless:
            self.send_header("Content-Type", content_type)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if status == 205:
            self.send_header("Content-Length", "0")
        elif not bodiless:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body and not bodiless and self.command != "HEAD":
            self.wfile.write(body)

    def reply_json(self, status, obj, headers=None):
        self.reply(status, json.dumps(obj).encode(), "application/json", headers)

    def redirect(self, status, location):
        self.reply_json(status, {"location": location}, {"Location": location})

    def raw_then_close(self, data):
        self.raw(data)
        self.close_connection = True

    def raw(self, data):
        """Write bytes straight to the socket; False once the peer is gone."""
        try:
            self.wfile.write(data)
            self.wfile.flush()
            return True
        except OSError:
            return False


# --------------------------------------------------------------------- server

class FaultServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 1024
    all_hosts = ()

    def server_bind(self):
        # Skip HTTPServer.server_bind: its getfqdn() may do slow DNS lookups.
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = self.server_address[:2]

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], OSError):
            super().handle_error(request, client_address)


class TLSState:
    """The TLS listener's port and what it saw: every accepted connection, then how its handshake ended."""

    def __init__(self):
        self.ready = threading.Event()
        self.error = None
        self.port = None
        self._lock = threading.Lock()
        self._counts = {"connections": 0, "ok": 0, "failed": 0}
        self.identities = None

    def count(self, name):
        with self._lock:
            self._counts[name] += 1

    def snapshot(self):
        with self._lock:
            c = dict(self._counts)
        report = {"port": self.port, "connections": c["connections"],
                  "handshakes": {"ok": c["ok"], "failed": c["failed"]}}
        if self.identities:
            report["identities"] = self.identities
        return report


TLS = TLSState()
TRUSTED_TLS = TLSState()
MUTUAL_TLS13 = TLSState()
MUTUAL_TLS12 = TLSState()
ALTERNATE_PORT = [0]
OTHER_HOST = ["127.0.0.2"]


class TLSFaultHandler(FaultHandler):
    """FaultHandler on a TLS socket, which cannot peek: /stall-before-read degrades to /stall here."""

    def handle(self):
        BaseHTTPRequestHandler.handle(self)


class TLSFaultServer(FaultServer):
    """The fault server behind TLS. The handshake runs on the connection's own thread, after it is counted."""

    ssl_context = None
    state = None

    def finish_request(self, request, client_address):
        self.state.count("connections")
        request.settimeout(10)
        try:
            tls_socket = self.ssl_context.wrap_socket(request, server_side=True, do_handshake_on_connect=False)
        except (ssl.SSLError, OSError):
            self.state.count("failed")
            return
        try:
            tls_socket.do_handshake()
        except (ssl.SSLError, OSError):
            self.state.count("failed")
            drain_then_close(tls_socket)
            return
        self.state.count("ok")
        tls_socket.settimeout(None)
        try:
            super().finish_request(tls_socket, client_address)
        finally:
            try:
                tls_socket.close()
            except OSError:
                pass


def drain_then_close(tls_socket):
    """Closes a connection whose handshake failed after reading what the client sent meanwhile (at most 1 s).

    Under TLS 1.3 the client finishes its side of the handshake and sends its request before the server refuses
    its certificate; closing with that request unread makes the kernel send a reset, which can reach the client
    before it reads the server's alert and destroy it (the client then sees only a reset). A lingering close, as
    nginx makes, lets the alert arrive."""
    try:
        raw = socket.fromfd(tls_socket.fileno(), socket.AF_INET, socket.SOCK_STREAM)
    except OSError:
        tls_socket.close()
        return
    try:
        raw.settimeout(1)
        while raw.recv(65536):
            pass
    except OSError:
        pass
    finally:
        raw.close()
        tls_socket.close()


def self_signed(workdir):
    """A self-signed certificate for 127.0.0.1: no client trusts it."""
    return issue(workdir, "cert", "/CN=127.0.0.1", ["subjectAltName=IP:127.0.0.1"])


def signed_by_test_ca(workdir):
    """A certificate for 127.0.0.1 signed by the run's test authority (NETWORKING_TEST_CA_DIR: ca.pem, ca.key)."""
    ca_dir = os.environ.get("NETWORKING_TEST_CA_DIR")
    if not ca_dir:
        raise OSError("NETWORKING_TEST_CA_DIR is not set: run the tests through `make test`, which makes the"
                      " run's certificate authority")
    return issue(workdir, "leaf", "/CN=127.0.0.1",
                 ["subjectAltName=IP:127.0.0.1", "basicConstraints=CA:FALSE", "extendedKeyUsage=serverAuth"], ca_dir)


def client_identities(workdir):
    """Two client identities as PEM: one the run's authority signed, one self-signed (a stranger to it)."""
    ca_dir = os.environ["NETWORKING_TEST_CA_DIR"]
    identities = {}
    for name in ("signed", "stranger"):
        subject = f"/CN=Networking test client {name}"
        if name == "signed":
            cert, key = issue(workdir, f"client-{name}", subject,
                              ["basicConstraints=CA:FALSE", "extendedKeyUsage=clientAuth"], ca_dir)
        else:
            cert, key = issue(workdir, f"client-{name}", subject)
        with open(cert) as c, open(key) as k:
            identities[name] = {"certificate": c.read(), "key": k.read()}
    return identities


def mutual(version):
    """A context change for a listener demanding a client certificate the run's authority signed, on `version`."""
    def configure(context, workdir):
        if version == ssl.TLSVersion.TLSv1_3 and not ssl.HAS_TLSv1_3:
            raise OSError(f"this Python's ssl ({ssl.OPENSSL_VERSION}) has no TLS 1.3, and no python3 on PATH has"
                          " (install one: brew install python@3.13)")
        context.verify_mode = ssl.CERT_REQUIRED
        context.load_verify_locations(os.path.join(os.environ["NETWORKING_TEST_CA_DIR"], "ca.pem"))
        context.minimum_version = version
        context.maximum_version = version
        return client_identities(workdir)
    return configure


def start_tls(host, hosts, state, make_certificate, configure=None):
    """A certificate from `make_certificate`, then a TLS listener on a free port that counts into `state`;
    `configure` may change the context and return the client identities to report."""
    try:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        with tempfile.TemporaryDirectory(prefix="fault-tls-") as workdir:
            context.load_cert_chain(*make_certificate(workdir))
            if configure:
                state.identities = configure(context, workdir)
        server = TLSFaultServer((host, 0), TLSFaultHandler)
        server.ssl_context = context
        server.state = state
        server.all_hosts = tuple(hosts)
        state.port = server.server_port
        threading.Thread(target=server.serve_forever, daemon=True).start()
    except (OSError, KeyError, subprocess.SubprocessError, ssl.SSLError) as error:
        state.error = f"no TLS listener: {error}"
    finally:
        state.ready.set()


def bind_all(hosts, port):
    """Bind every host on one port; with port 0 retry on collisions."""
    attempts = 20 if port == 0 else 1
    for attempt in range(attempts):
        servers = []
        try:
            servers.append(FaultServer((hosts[0], port), FaultHandler))
            chosen = servers[0].server_port
            for host in hosts[1:]:
                servers.append(FaultServer((host, chosen), FaultHandler))
            return servers
        except OSError as error:
            for server in servers:
                server.server_close()
            if error.errno == errno.EADDRNOTAVAIL and len(hosts) > 1:
                # macOS routes 127.0.0.1 alone unless `sudo ifconfig lo0 alias 127.0.0.2 up` was run: serve the
                # first host only; OTHER_HOST then names the second origin "localhost".
                print(f"fault_server: {hosts[1:]} not bound ({error}); the other origin is localhost",
                      file=sys.stderr)
                return bind_all(hosts[:1], port)
            if attempt == attempts - 1:
                sys.exit(f"fault_server: cannot bind {hosts} port {port}: {error}")


def run_on_a_python_with_tls13():
    """Runs this server again on a Python whose ssl has TLS 1.3 when this one's has not: Xcode's python3 (3.9,
    LibreSSL 2.8.3) has none, and the mutual-TLS listener needs it. With no such Python the server still runs, and
    that listener reports why it is missing."""
    if ssl.HAS_TLSv1_3 or os.environ.get("FAULT_SERVER_PYTHON_CHOSEN"):
        return
    better = find_python(TLS13)
    if better:
        os.environ["FAULT_SERVER_PYTHON_CHOSEN"] = better
        os.execv(better, [better, os.path.abspath(__file__)] + sys.argv[1:])


def main():
    run_on_a_python_with_tls13()
    parser = argparse.ArgumentParser(description="Fault-injection HTTP server")
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--lifetime", type=float, default=1800)
    parser.add_argument("--hosts", default="127.0.0.1,127.0.0.2")
    parser.add_argument("--parent-pid", type=int, default=0,
                        help="exit as soon as this process is gone (the test run that started us)")
    args = parser.parse_args()

    hosts = [h.strip() for h in args.hosts.split(",") if h.strip()]
    if not hosts or not all(h.startswith("127.") for h in hosts):
        sys.exit("fault_server: --hosts must list loopback (127.x) addresses")

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: os._exit(0))
    timer = threading.Timer(args.lifetime, os._exit, args=(0,))
    timer.daemon = True
    timer.start()

    servers = bind_all(hosts, args.port)
    hosts = [server.server_address[0] for server in servers]
    OTHER_HOST[0] = hosts[1] if len(hosts) > 1 else "localhost"
    alternate = FaultServer((hosts[0], 0), FaultHandler)
    ALTERNATE_PORT[0] = alternate.server_port
    servers.append(alternate)
    for server in servers:
        server.all_hosts = tuple(hosts)
        threading.Thread(target=server.serve_forever, daemon=True).start()
    threading.Thread(target=start_tls, args=(hosts[0], hosts, TLS, self_signed), daemon=True).start()
    threading.Thread(target=start_tls, args=(hosts[0], hosts, TRUSTED_TLS, signed_by_test_ca), daemon=True).start()
    for state, version in ((MUTUAL_TLS13, ssl.TLSVersion.TLSv1_3), (MUTUAL_TLS12, ssl.TLSVersion.TLSv1_2)):
        threading.Thread(target=start_tls, args=(hosts[0], hosts, state, signed_by_test_ca, mutual(version)),
                         daemon=True).start()
    publish(args.port_file, f"{servers[0].server_port}\n")
    while not parent_gone(args.parent_pid):
        time.sleep(0.5)
    os._exit(0)


if __name__ == "__main__":
    main()
