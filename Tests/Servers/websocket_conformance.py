#!/usr/bin/env python3
"""A WebSocket conformance server for the client tests: Autobahn|Testsuite's client cases of sections 1-7 and 9,
re-expressed in Python 3 (asyncio, stdlib only).

Usage:
    python3 websocket_conformance.py --port-file PATH [--lifetime 1800] [--parent-pid PID]

Autobahn|Testsuite (PyPI `autobahntestsuite`, Python 2, Apache-2.0) is the suite every WebSocket implementation
publishes a report of. Its `fuzzingserver` mode plays the server for a client under test that echoes every message
back: for each case the server sends frames (whole, fragmented, chopped into small TCP writes, broken on purpose),
records what the client sends back (messages, pongs) and how the connection ends, and grades both. This server does
the same for the cases of sections 1 (framing), 2 (pings and pongs), 3 (reserved bits), 4 (opcodes), 5
(fragmentation), 6 (UTF-8), 7 (closing) and 9 (limits), with Autobahn's expectations and grades:

    behavior       OK when what the client sent back equals the case's expected events; NON-STRICT when it equals
                   the expectation Autobahn grades as non-strict (a SHOULD not followed, still conformant);
                   INFORMATIONAL for cases the spec leaves open; else FAILED.
    behaviorClose  OK when the right side started the closing handshake, its close code is one the case allows,
                   and, where the case requires it, the closing handshake completed before the server dropped the
                   connection; else WRONG CODE, UNCLEAN or FAILED. A close code of the wrong kind fails the
                   behavior too in the cases of section 7, as Autobahn's do.

What differs from Autobahn, and why: cases end as soon as their outcome is known (Autobahn's `closeAfter` and
`killAfter` delays are the limits, not waits), so the suite runs in a minute; section 9.7/9.8 measure round trips
but grade only the echo, as Autobahn does; 10.1 and 12-13 (auto-fragmentation, permessage-deflate) are not here.

Routes (HTTP/1.1 on 127.0.0.1):
    GET /cases                      [{"id": "1.1.1", "section": "1", "description": ...}, ...]
    GET /runCase?case=ID            the WebSocket handshake; then the case runs on the connection
    GET /result?case=ID             the last run of ID, graded, once it ended (waits up to 10 s):
                                    {"id", "behavior", "behaviorClose", "remoteCloseCode", "result", "resultClose",
                                     "duration_ms"}
    GET /echo                       a WebSocket echo of every message, for other tests
"""

import argparse
import asyncio
import base64
import hashlib
import json
import signal
import socket
import struct
import sys
import time
import urllib.parse

from lifecycle import parent_gone, publish

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
OK, NON_STRICT, FAILED, INFORMATIONAL = "OK", "NON-STRICT", "FAILED", "INFORMATIONAL"
WRONG_CODE, UNCLEAN = "WRONG CODE", "UNCLEAN"
NORMAL, PROTOCOL_ERROR, INVALID_PAYLOAD = 1000, 1002, 1007


def xor_mask(data, key):
    """Unmasks (RFC 6455 §5.3) as one big-integer XOR: fast enough for 16 MiB in CPython."""
    if not data:
        return data
    n = len(data)
    pattern = (key * (n // 4 + 1))[:n]
    return (int.from_bytes(data, "big") ^ int.from_bytes(pattern, "big")).to_bytes(n, "big")


def frame(opcode, payload=b"", fin=True, rsv=0, payload_len=None):
    """A server frame (unmasked); `payload_len` repeats `payload` to that length, as Autobahn's sendFrame does."""
    if payload_len is not None:
        payload = (payload * (payload_len // max(1, len(payload)) + 1))[:payload_len]
    head = bytes([(0x80 if fin else 0) | (rsv & 7) << 4 | (opcode & 0xF)])
    n = len(payload)
    if n <= 125:
        head += bytes([n])
    elif n <= 0xFFFF:
        head += bytes([126]) + struct.pack("!H", n)
    else:
        head += bytes([127]) + struct.pack("!Q", n)
    return head + payload


class Connection:
    """The server's side of one case's connection: sends as the case says, reads the client's frames, and keeps
    Autobahn's record of the closing handshake (closedByMe, wasClean, remoteCloseCode)."""

    def __init__(self, reader, writer, case):
        self.reader, self.writer, self.case = reader, writer, case
        self.received = []
        self.closed_by_me = None  # who sent the first close frame: True (server), False (client)
        self.close_sent = False
        self.close_received = False
        self.remote_close_code = None
        self.was_clean = False
        self.dropped = False
        self.open = True
        self.done = asyncio.Event()
        self.violation = None
        self.timers = []

    # Sending

    async def write(self, data, chopsize=None, sync=False):
        if self.dropped:
            return
        try:
            if chopsize:
                for i in range(0, len(data), chopsize):
                    self.writer.write(data[i:i + chopsize])
                    await self.writer.drain()
                    await asyncio.sleep(0)
            else:
                self.writer.write(data)
                await self.writer.drain()
                if sync:
                    await asyncio.sleep(0)
        except (ConnectionError, OSError):
            self.drop()

    async def send_frame(self, opcode, payload=b"", fin=True, rsv=0, payload_len=None, chopsize=None, sync=False):
        if self.close_sent and not self.case.suppress_close:
            return
        await self.write(frame(opcode, payload, fin, rsv, payload_len), chopsize, sync)

    async def send_message(self, payload, binary=False, fragment_size=None):
        opcode = 2 if binary else 1
        if not fragment_size or fragment_size >= len(payload):
            return await self.send_frame(opcode, payload)
        for start in range(0, len(payload), fragment_size):
            chunk = payload[start:start + fragment_size]
            await self.send_frame(opcode if start == 0 else 0, chunk, fin=start + fragment_size >= len(payload))

    async def send_close(self, code=None, reason=b"", raw=None):
        """Starts (or answers) the closing handshake; `raw` is a payload of the case's own (sendCloseFrame)."""
        if self.close_sent or self.dropped:
            return
        payload = raw if raw is not None else (b"" if code is None else struct.pack("!H", code) + reason)
        self.close_sent = True
        if self.closed_by_me is None:
            self.closed_by_me = True
        await self.write(frame(8, payload))
        if self.close_received:
            self.finish_clean()

    def finish_clean(self):
        # Both close frames went: the server drops the TCP connection, its duty (RFC 6455 §7.1.1).
        self.was_clean = True
        self.drop()

    def drop(self):
        if self.dropped:
            return
        self.dropped = True
        self.open = False
        try:
            self.writer.close()
        except Exception:
            pass
        self.done.set()

    def later(self, seconds, action):
        async def run():
            await asyncio.sleep(seconds)
            if not self.dropped:
                await action()
        self.timers.append(asyncio.ensure_future(run()))

    def close_after(self, seconds):
        self.later(seconds, lambda: self.send_close(NORMAL))

    def kill_after(self, seconds):
        async def kill():
            self.drop()
        self.later(seconds, kill)

    # Receiving

    async def read_frames(self):
        message, message_binary = None, False
        try:
            while not self.dropped:
                head = await self.reader.readexactly(2)
                fin, rsv, opcode = head[0] & 0x80, head[0] & 0x70, head[0] & 0xF
                masked, length = head[1] & 0x80, head[1] & 0x7F
                if length == 126:
                    length = struct.unpack("!H", await self.reader.readexactly(2))[0]
                elif length == 127:
                    length = struct.unpack("!Q", await self.reader.readexactly(8))[0]
                if not masked or rsv or opcode in (3, 4, 5, 6, 7, 11, 12, 13, 14, 15):
                    self.violation = "the client sent an unmasked or malformed frame (RFC 6455 §5.1, §5.2)"
                    return self.drop()
                key = await self.reader.readexactly(4)
                payload = xor_mask(await self.reader.readexactly(length), key)
                if opcode == 8:
                    self.close_received = True
                    if self.closed_by_me is None:
                        self.closed_by_me = False
                    if len(payload) >= 2:
                        self.remote_close_code = struct.unpack("!H", payload[:2])[0]
                    if self.close_sent:
                        return self.finish_clean()
                    await self.send_close(self.remote_close_code)  # echoes, then drops (clean)
                    return
                if self.close_received:
                    continue
                if opcode == 9:
                    await self.write(frame(10, payload)) if not self.close_sent else None
                elif opcode == 10:
                    self.record(("pong", payload))
                elif opcode in (1, 2):
                    message, message_binary = bytearray(payload), opcode == 2
                    if fin:
                        self.record(("message", bytes(message), message_binary))
                        message = None
                elif opcode == 0 and message is not None:
                    message += payload
                    if fin:
                        self.record(("message", bytes(message), message_binary))
                        message = None
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            pass
        finally:
            self.drop()

    def record(self, event):
        if self.close_sent and not self.case.records_after_close:
            return
        self.received.append(event)
        self.case.on_event(self, event)


class Case:
    """One case: what the server sends when the connection opens, the outcomes it grades, and how it closes.
    `expected` maps a grade to the events expected back; `expected_close` is Autobahn's dict."""

    def __init__(self, cid, description, opening, expected=None, expected_close=None, suppress_close=False,
                 informational=False, wrong_code_fails=False, on_message=None, records_after_close=False):
        self.id, self.description = cid, description
        self.section = cid.split(".")[0]
        self.opening = opening
        self.expected = expected or {}
        self.expected_close = expected_close or {}
        self.suppress_close = suppress_close
        self.informational = informational
        self.wrong_code_fails = wrong_code_fails
        self.on_message = on_message
        self.records_after_close = records_after_close
        self.state = {}

    def on_event(self, conn, event):
        if self.on_message is not None and event[0] == "message":
            asyncio.ensure_future(self.on_message(conn, event))
            return
        # Autobahn's finishWhenDone: once the events match every expectation, the server closes if it is to.
        if self.expected and all(conn.received == e for e in self.expected.values()):
            if self.expected_close.get("closedByMe") and not self.suppress_close:
                asyncio.ensure_future(conn.send_close(self.expected_close["closeCode"][0]))

    def grade(self, conn):
        behavior, result = FAILED, "Actual events differ from any expected."
        for grade, events in self.expected.items():
            if conn.received == events:
                behavior, result = grade, "Actual events match at least one expected."
                break
        if self.on_message is not None:
            behavior, result = self.state.get("behavior", FAILED), self.state.get("result", "no message came back")
        expected = self.expected_close
        # As Autobahn grades: closedByMe is False unless the server sent the first close frame, so a connection the
        # client dropped without a close frame passes where the client is to fail it. The tests ask more of our
        # client (a close frame every time: remoteCloseCode), apart from this grade.
        if expected["closedByMe"] != bool(conn.closed_by_me):
            close, close_result = FAILED, "The connection was failed by the wrong endpoint"
        elif expected["requireClean"] and not conn.was_clean:
            close, close_result = UNCLEAN, "The spec requires the connection to be failed cleanly here"
        elif conn.remote_close_code is not None and conn.remote_close_code not in expected["closeCode"]:
            close, close_result = WRONG_CODE, "The close code should have been %s or empty" % ",".join(
                map(str, expected["closeCode"]))
        else:
            close, close_result = OK, "Connection was properly closed"
        if expected.get("closedByWrongEndpointIsFatal") and expected["closedByMe"] != bool(conn.closed_by_me):
            behavior = FAILED
        if self.wrong_code_fails and close == WRONG_CODE:
            behavior, result = FAILED, close_result
        if conn.violation:
            behavior, result = FAILED, conn.violation
        if self.informational:
            behavior = close = INFORMATIONAL
            result = "Actual events are undefined by the spec."
        return behavior, result, close, close_result


def closing(by_me, codes, clean, **extra):
    return dict(closedByMe=by_me, closeCode=codes, requireClean=clean, **extra)


NORMAL_CLOSE = closing(True, [NORMAL], True)
CLIENT_FAILS = closing(False, [PROTOCOL_ERROR], False)
INVALID_UTF8 = closing(False, [INVALID_PAYLOAD], False, closedByWrongEndpointIsFatal=True)


def sends(*steps, close_after=None, kill_after=None):
    """An opening that sends `steps` (dicts of send_frame's arguments, or coroutine functions) in order."""
    async def opening(conn):
        for step in steps:
            if callable(step):
                await step(conn)
            else:
                await conn.send_frame(**step)
        if close_after is not None:
            conn.close_after(close_after)
        if kill_after is not None:
            conn.kill_after(kill_after)
    return opening


def f(opcode, payload=b"", **kw):
    return dict(opcode=opcode, payload=payload, **kw)


def build_cases():
    cases = []

    def add(*args, **kwargs):
        cases.append(Case(*args, **kwargs))

    # 1 Framing: text (1.1) and binary (1.2) messages of the lengths around the 7/16/64-bit length forms.
    for binary, sub, byte in ((False, 1, b"*"), (True, 2, b"\xfe")):
        sizes = [(0, None), (125, None), (126, None), (127, None), (128, None), (65535, None), (65536, None),
                 (65536, 997)]
        for i, (size, chop) in enumerate(sizes, 1):
            payload = byte * size
            add("1.%d.%d" % (sub, i), "%s message of %d bytes%s" % ("binary" if binary else "text", size,
                                                                   ", chopped into 997-byte writes" if chop else ""),
                sends(f(2 if binary else 1, payload, chopsize=chop), kill_after=10 if size > 128 else 1),
                {OK: [("message", payload, binary)]}, NORMAL_CLOSE)

    # 2 Pings and pongs.
    add("2.1", "ping without payload", sends(f(9), close_after=1), {OK: [("pong", b"")]}, NORMAL_CLOSE)
    add("2.2", "ping with a small text payload", sends(f(9, b"Hello, world!"), close_after=1),
        {OK: [("pong", b"Hello, world!")]}, NORMAL_CLOSE)
    binary8 = b"\x00\xff\xfe\xfd\xfc\xfb\x00\xff"
    add("2.3", "ping with a small binary payload", sends(f(9, binary8), close_after=1), {OK: [("pong", binary8)]},
        NORMAL_CLOSE)
    add("2.4", "ping with a 125-byte binary payload", sends(f(9, b"\xfe" * 125), close_after=1),
        {OK: [("pong", b"\xfe" * 125)]}, NORMAL_CLOSE)
    add("2.5", "ping with a 126-byte payload (too long for a control frame)", sends(f(9, b"\xfe" * 126),
                                                                                 kill_after=1),
        {OK: []}, CLIENT_FAILS)
    add("2.6", "ping with a 125-byte payload written a byte at a time", sends(f(9, b"\xfe" * 125, chopsize=1),
                                                                            close_after=2),
        {OK: [("pong", b"\xfe" * 125)]}, NORMAL_CLOSE)
    add("2.7", "unsolicited pong without payload, then close", sends(f(10), lambda c: c.send_close(NORMAL),
                                                                     close_after=1), {OK: []}, NORMAL_CLOSE)
    add("2.8", "unsolicited pong with payload, then close",
        sends(f(10, b"unsolicited pong payload"), lambda c: c.send_close(NORMAL), close_after=1), {OK: []},
        NORMAL_CLOSE)
    add("2.9", "unsolicited pong, then a ping", sends(f(10, b"unsolicited pong payload"), f(9, b"ping payload"),
                                                      close_after=1),
        {OK: [("pong", b"ping payload")]}, NORMAL_CLOSE)
    for cid, chop in (("2.10", None), ("2.11", 1)):
        pings = [b"payload-%d" % i for i in range(10)]
        add(cid, "10 pings%s" % (" written a byte at a time" if chop else ""),
            sends(*[f(9, p, chopsize=chop) for p in pings], close_after=3),
            {OK: [("pong", p) for p in pings]}, NORMAL_CLOSE)

    # 3 Reserved bits: a frame with RSV set and no extension fails the connection.
    hello = b"Hello, world!"
    add("3.1", "text with RSV = 1", sends(f(1, hello, rsv=1), kill_after=1), {OK: []}, CLIENT_FAILS)
    for cid, rsv, kw in (("3.2", 2, {}), ("3.3", 3, {"sync": True}), ("3.4", 4, {"chopsize": 1})):
        add(cid, "text, then text with RSV = %d, then ping%s" % (rsv, "" if not kw else " (%s)" % list(kw)[0]),
            sends(f(1, hello, **kw), f(1, hello, rsv=rsv, **kw), f(9, **kw), kill_after=1),
            {OK: [("message", hello, False)], NON_STRICT: []}, CLIENT_FAILS)
    add("3.5", "binary with RSV = 5", sends(f(2, binary8, rsv=5), kill_after=1), {OK: []}, CLIENT_FAILS)
    add("3.6", "ping with RSV = 6", sends(f(9, hello, rsv=6), kill_after=1), {OK: []}, CLIENT_FAILS)
    add("3.7", "close with RSV = 7", sends(f(8, rsv=7), kill_after=1), {OK: []}, CLIENT_FAILS)

    # 4 Opcodes: reserved non-control (4.1: 3-7) and control (4.2: 11-15) opcodes fail the connection.
    for sub, codes in ((1, (3, 4, 5, 6, 7)), (2, (11, 12, 13, 14, 15))):
        add("4.%d.1" % sub, "reserved opcode %d" % codes[0], sends(f(codes[0]), kill_after=1), {OK: []},
            CLIENT_FAILS)
        add("4.%d.2" % sub, "reserved opcode %d with payload" % codes[1],
            sends(f(codes[1], b"reserved opcode payload"), kill_after=1), {OK: []}, CLIENT_FAILS)
        for i, (code, payload, kw) in enumerate(((codes[2], b"", {}), (codes[3], hello, {}),
                                                 (codes[4], hello, {"chopsize": 1})), 3):
            add("4.%d.%d" % (sub, i), "text, then reserved opcode %d, then ping" % code,
                sends(f(1, hello, **kw), f(code, payload, **kw), f(9, **kw), kill_after=1),
                {OK: [("message", hello, False)], NON_STRICT: []}, CLIENT_FAILS)

    # 5 Fragmentation.
    add("5.1", "a fragmented ping", sends(f(9, b"fragment1", fin=False), f(0, b"fragment2"), kill_after=1),
        {OK: []}, CLIENT_FAILS)
    add("5.2", "a fragmented pong", sends(f(10, b"fragment1", fin=False), f(0, b"fragment2"), kill_after=1),
        {OK: []}, CLIENT_FAILS)
    two = [b"fragment1", b"fragment2"]
    for cid, kw in (("5.3", {}), ("5.4", {"sync": True}), ("5.5", {"chopsize": 1})):
        add(cid, "a text message in 2 fragments%s" % ("" if not kw else " (%s)" % list(kw)[0]),
            sends(f(1, two[0], fin=False, **kw), f(0, two[1], **kw), close_after=1),
            {OK: [("message", b"".join(two), False)]}, NORMAL_CLOSE)
    for cid, kw in (("5.6", {}), ("5.7", {"sync": True}), ("5.8", {"chopsize": 1})):
        add(cid, "a text message in 2 fragments with a ping between%s" % ("" if not kw else " (%s)" % list(kw)[0]),
            sends(f(1, two[0], fin=False, **kw), f(9, b"ping payload", **kw), f(0, two[1], **kw), close_after=1),
            {OK: [("pong", b"ping payload"), ("message", b"".join(two), False)]}, NORMAL_CLOSE)
    for cid, fin, kw in (("5.9", True, {}), ("5.10", True, {"sync": True}), ("5.11", True, {"chopsize": 1}),
                         ("5.12", False, {}), ("5.13", False, {"sync": True}), ("5.14", False, {"chopsize": 1})):
        add(cid, "a continuation (FIN %d) with no message in progress" % fin,
            sends(f(0, b"non-continuation payload", fin=fin, **kw), f(1, hello, **kw), kill_after=1),
            {OK: []}, CLIENT_FAILS)
    four = [b"fragment1", b"fragment2", b"fragment3", b"fragment4"]
    add("5.15", "a message in 2 fragments, then a continuation, then text before the message ended",
        sends(f(1, four[0], fin=False), f(0, four[1]), f(0, four[2], fin=False), f(1, four[3]), kill_after=1),
        {OK: [("message", four[0] + four[1], False)], NON_STRICT: []}, CLIENT_FAILS)
    add("5.16", "continuation, text, continuation, twice",
        sends(*[f(0, b"fragment1", fin=False), f(1, b"fragment2", fin=False), f(0, b"fragment3")] * 2,
              kill_after=1), {OK: []}, CLIENT_FAILS)
    add("5.17", "final continuation, text, continuation, twice",
        sends(*[f(0, b"fragment1"), f(1, b"fragment2", fin=False), f(0, b"fragment3")] * 2, kill_after=1),
        {OK: []}, CLIENT_FAILS)
    add("5.18", "a text message begun twice", sends(f(1, b"fragment1", fin=False), f(1, b"fragment2"),
                                                     kill_after=1), {OK: []}, CLIENT_FAILS)
    five = [b"fragment%d" % i for i in range(1, 6)]
    pings = [b"pongme 1!", b"pongme 2!"]
    for cid, sync in (("5.19", False), ("5.20", True)):
        async def part2(conn, sync=sync):
            await conn.send_frame(0, five[2], fin=False, sync=sync)
            await conn.send_frame(0, five[3], fin=False, sync=sync)
            await conn.send_frame(9, pings[1], sync=sync)
            await conn.send_frame(0, five[4], sync=sync)
            conn.close_after(1)

        async def opening(conn, sync=sync, part2=part2):
            await conn.send_frame(1, five[0], fin=False, sync=sync)
            await conn.send_frame(0, five[1], fin=False, sync=sync)
            await conn.send_frame(9, pings[0], sync=sync)
            conn.later(1, lambda: part2(conn))

        add(cid, "a message in 5 fragments with 2 pings between, a second's pause in the middle%s"
            % (" (each frame its own write)" if sync else ""), opening,
            {OK: [("pong", pings[0]), ("pong", pings[1]), ("message", b"".join(five), False)]}, NORMAL_CLOSE)

    add_utf8_cases(add)
    add_close_cases(add)
    add_limit_cases(add)
    return cases


def add_utf8_cases(add):
    add("6.1.1", "empty text message", sends(f(1), close_after=1), {OK: [("message", b"", False)]}, NORMAL_CLOSE)
    add("6.1.2", "empty text message in 3 empty fragments",
        sends(f(1, fin=False), f(0, fin=False), f(0), close_after=1), {OK: [("message", b"", False)]}, NORMAL_CLOSE)
    add("6.1.3", "text in 3 fragments, the first and last empty",
        sends(f(1, fin=False), f(0, b"middle frame payload", fin=False), f(0), close_after=1),
        {OK: [("message", b"middle frame payload", False)]}, NORMAL_CLOSE)
    greek = "Hello-µ@ßöäüàá-UTF-8!!".encode()
    kosme = b"\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5"
    add("6.2.1", "valid UTF-8 in one frame", sends(lambda c: c.send_message(greek), close_after=1),
        {OK: [("message", greek, False)]}, NORMAL_CLOSE)
    half1, half2 = "Hello-µ@ßöä".encode(), "üàá-UTF-8!!".encode()
    add("6.2.2", "valid UTF-8 in 2 fragments cut between code points",
        sends(f(1, half1, fin=False), f(0, half2), close_after=1), {OK: [("message", half1 + half2, False)]},
        NORMAL_CLOSE)
    add("6.2.3", "valid UTF-8 in 1-byte fragments", sends(lambda c: c.send_message(greek, fragment_size=1),
                                                          close_after=1),
        {OK: [("message", greek, False)]}, NORMAL_CLOSE)
    add("6.2.4", "valid UTF-8 (kosme) in 1-byte fragments", sends(lambda c: c.send_message(kosme, fragment_size=1),
                                                                  close_after=1),
        {OK: [("message", kosme, False)]}, NORMAL_CLOSE)
    invalid = kosme + b"\xed\xa0\x80" + b"edited"
    add("6.3.1", "invalid UTF-8 (a surrogate) in one frame", sends(lambda c: c.send_message(invalid), kill_after=1),
        {OK: []}, INVALID_UTF8)
    add("6.3.2", "invalid UTF-8 in 1-byte fragments", sends(lambda c: c.send_message(invalid, fragment_size=1),
                                                            kill_after=1),
        {OK: []}, INVALID_UTF8)
    # 6.4 Fail fast: the invalid part arrives, a second passes; a client that failed by then is OK.
    out_of_range = kosme + b"\xf4\x90\x80\x80" + b"edited"
    for cid, parts, one_frame in (("6.4.1", (kosme, b"\xf4\x90\x80\x80", b"edited"), False),
                                  ("6.4.2", (out_of_range[:12], out_of_range[12:13], out_of_range[13:]), False),
                                  ("6.4.3", (kosme, b"\xf4\x90\x80\x80", b"edited"), True),
                                  ("6.4.4", (out_of_range[:12], out_of_range[12:13], out_of_range[13:]), True)):
        add(cid, "invalid UTF-8 in 3 %s, a second between them" % ("writes of one frame" if one_frame else "frames"),
            fail_fast_opening(parts, one_frame), {OK: [("timeout", "A")], NON_STRICT: [("timeout", "A"),
                                                                                        ("timeout", "B")]},
            INVALID_UTF8, records_after_close=True)
    section = 5
    for title, sequences in utf8_sequences():
        for i, (valid, payload) in enumerate(sequences, 1):
            add("6.%d.%d" % (section, i), "%s: %s UTF-8, 0x%s" % (title, "valid" if valid else "invalid",
                                                                 payload.hex()),
                sends(lambda c, p=payload: c.send_message(p), kill_after=0.5),
                {OK: [("message", payload, False)]} if valid else {OK: []},
                NORMAL_CLOSE if valid else INVALID_UTF8)
        section += 1


def fail_fast_opening(parts, one_frame):
    total = sum(len(p) for p in parts)

    async def opening(conn):
        async def part3():
            conn.received.append(("timeout", "B"))
            if one_frame:
                await conn.write(parts[2])
            else:
                await conn.send_frame(0, parts[2])
            conn.kill_after(1)

        async def part2():
            conn.received.append(("timeout", "A"))
            if one_frame:
                await conn.write(parts[1])
            else:
                await conn.send_frame(0, parts[1], fin=False)
            conn.later(1, part3)

        if one_frame:
            # One frame of the whole length whose payload is written in three parts (beginMessageFrame).
            await conn.write(frame(1, b"\0" * total)[:-total] + parts[0])
        else:
            await conn.send_frame(1, parts[0], fin=False)
        conn.later(1, part2)
    return opening


def utf8_sequences():
    """Markus Kuhn's UTF-8 decoder capability and stress test, as Autobahn's case6_x_x builds it (6.5 to 6.23);
    validity by Python's strict decoder, which refuses what RFC 3629 refuses."""
    def valid(b):
        try:
            b.decode("utf-8")
            return True
        except UnicodeDecodeError:
            return False
    kosme = b"\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5"
    seqs = []
    seqs.append(("Some valid UTF-8 sequences", [b"hello\x24world", b"hello\xc2\xa2world", b"hello\xe2\x82\xacworld",
                                                b"hello\xf0\xa4\xad\xa2world", kosme]))
    seqs.append(("All prefixes of a valid UTF-8 string that contains multi-byte code points",
                 [kosme[:i] for i in range(1, len(kosme) + 1)]))
    seqs.append(("First possible sequence of a certain length", [b"\x00", b"\xc2\x80", b"\xe0\xa0\x80",
                                                                 b"\xf0\x90\x80\x80"]))
    seqs.append(("First possible sequence length 5/6 (invalid codepoints)", [b"\xf8\x88\x80\x80\x80",
                                                                             b"\xfc\x84\x80\x80\x80\x80"]))
    seqs.append(("Last possible sequence of a certain length", [b"\x7f", b"\xdf\xbf", b"\xef\xbf\xbf",
                                                                b"\xf4\x8f\xbf\xbf"]))
    seqs.append(("Last possible sequence length 4/5/6 (invalid codepoints)",
                 [b"\xf7\xbf\xbf\xbf", b"\xfb\xbf\xbf\xbf\xbf", b"\xfd\xbf\xbf\xbf\xbf\xbf"]))
    seqs.append(("Other boundary conditions", [b"\xed\x9f\xbf", b"\xee\x80\x80", b"\xef\xbf\xbd",
                                               b"\xf4\x8f\xbf\xbf", b"\xf4\x90\x80\x80"]))
    seqs.append(("Unexpected continuation bytes", [b"\x80", b"\xbf", b"\x80\xbf", b"\x80\xbf\x80",
                                                   b"\x80\xbf\x80\xbf", b"\x80\xbf\x80\xbf\x80",
                                                   b"\x80\xbf\x80\xbf\x80\xbf", bytes(range(0x80, 0xbf))]))
    seqs.append(("Lonely start characters", [b"".join(bytes([i, 0x20]) for i in range(lo, hi))
                                             for lo, hi in ((0xc0, 0xdf), (0xe0, 0xef), (0xf0, 0xf7), (0xf8, 0xfb),
                                                            (0xfc, 0xfd))]))
    missing = [b"\xc0", b"\xe0\x80", b"\xf0\x80\x80", b"\xf8\x80\x80\x80", b"\xfc\x80\x80\x80\x80", b"\xdf",
               b"\xef\xbf", b"\xf7\xbf\xbf", b"\xfb\xbf\xbf\xbf", b"\xfd\xbf\xbf\xbf\xbf"]
    seqs.append(("Sequences with last continuation byte missing", missing))
    seqs.append(("Concatenation of incomplete sequences", [b"".join(missing)]))
    seqs.append(("Impossible bytes", [b"\xfe", b"\xff", b"\xfe\xfe\xff\xff"]))
    seqs.append(("Examples of an overlong ASCII character", [b"\xc0\xaf", b"\xe0\x80\xaf", b"\xf0\x80\x80\xaf",
                                                             b"\xf8\x80\x80\x80\xaf", b"\xfc\x80\x80\x80\x80\xaf"]))
    seqs.append(("Maximum overlong sequences", [b"\xc1\xbf", b"\xe0\x9f\xbf", b"\xf0\x8f\xbf\xbf",
                                                b"\xf8\x87\xbf\xbf\xbf", b"\xfc\x83\xbf\xbf\xbf\xbf"]))
    seqs.append(("Overlong representation of the NUL character", [b"\xc0\x80", b"\xe0\x80\x80",
                                                                   b"\xf0\x80\x80\x80", b"\xf8\x80\x80\x80\x80",
                                                                   b"\xfc\x80\x80\x80\x80\x80"]))
    seqs.append(("Single UTF-16 surrogates", [b"\xed\xa0\x80", b"\xed\xad\xbf", b"\xed\xae\x80", b"\xed\xaf\xbf",
                                              b"\xed\xb0\x80", b"\xed\xbe\x80", b"\xed\xbf\xbf"]))
    seqs.append(("Paired UTF-16 surrogates", [a + b for a in (b"\xed\xa0\x80", b"\xed\xad\xbf", b"\xed\xae\x80",
                                                                 b"\xed\xaf\xbf")
                                              for b in (b"\xed\xb0\x80", b"\xed\xbf\xbf")]))
    nonchars = [b"\xef\xbf\xbe", b"\xef\xbf\xbf"]
    for z1 in (b"\xf0", b"\xf1", b"\xf2", b"\xf3", b"\xf4"):
        for z2 in (b"\x8f", b"\x9f", b"\xaf", b"\xbf"):
            if not (z1 == b"\xf4" and z2 != b"\x8f"):
                for z3 in (b"\xbe", b"\xbf"):
                    zz = z1 + z2 + b"\xbf" + z3
                    if zz not in (b"\xf0\x8f\xbf\xbe", b"\xf0\x8f\xbf\xbf"):
                        nonchars.append(zz)
    seqs.append(("Non-character code points (valid UTF-8)", nonchars))
    seqs.append(("Unicode specials (i.e. replacement char)", [b"\xef\xbf" + bytes([i]) for i in range(0xb9, 0xc0)]))
    return [(title, [(valid(s), s) for s in items]) for title, items in seqs]


def add_close_cases(add):
    hello = b"Hello World!"
    add("7.1.1", "a message, then the server closes", sends(f(1, hello), kill_after=1),
        {OK: [("message", hello, False)]}, NORMAL_CLOSE, wrong_code_fails=True)
    after_close = (("7.1.2", "close, then close again", f(8)), ("7.1.3", "close, then a ping", f(9)),
                   ("7.1.4", "close, then text", f(1, hello)))
    for cid, title, extra in after_close:
        add(cid, title, sends(lambda c: c.send_close(NORMAL), extra, kill_after=1), {OK: []}, NORMAL_CLOSE,
            suppress_close=True, wrong_code_fails=True)
    add("7.1.5", "a fragment, close, then the message's last fragment",
        sends(f(1, b"fragment1", fin=False), lambda c: c.send_close(NORMAL), f(0, b"fragment2"), kill_after=1),
        {OK: []}, NORMAL_CLOSE, suppress_close=True, wrong_code_fails=True)
    add("7.1.6", "256 KiB of text, a small text, close, then a ping",
        sends(f(1, b"BAsd7&jh23", payload_len=256 * 1024), f(1, hello), lambda c: c.send_close(NORMAL), f(9),
              kill_after=1),
        {OK: [("message", hello, False)], NON_STRICT: []}, NORMAL_CLOSE, suppress_close=True, informational=True,
        records_after_close=True)
    close_frames = (("7.3.1", "close without payload", b"", NORMAL_CLOSE),
                    ("7.3.2", "close with a 1-byte payload", b"a", closing(True, [PROTOCOL_ERROR], False)),
                    ("7.3.3", "close with a code and no reason", struct.pack("!H", NORMAL), NORMAL_CLOSE),
                    ("7.3.4", "close with a code and a reason", struct.pack("!H", NORMAL) + hello, NORMAL_CLOSE),
                    ("7.3.5", "close with a 123-byte reason", struct.pack("!H", NORMAL) + b"*" * 123, NORMAL_CLOSE),
                    ("7.3.6", "close with a 124-byte reason (payload over 125)", struct.pack("!H", NORMAL) + b"*" * 124,
                     closing(True, [PROTOCOL_ERROR], False)),
                    ("7.5.1", "close with a reason that is not UTF-8",
                     struct.pack("!H", NORMAL) + b"\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5\xed\xa0\x80edited",
                     closing(True, [PROTOCOL_ERROR, INVALID_PAYLOAD], False)))
    for cid, title, payload, expected_close in close_frames:
        add(cid, title, sends(lambda c, p=payload: c.send_close(raw=p), kill_after=1), {OK: []}, expected_close,
            suppress_close=True, wrong_code_fails=True)
    for i, code in enumerate((1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999), 1):
        add("7.7.%d" % i, "close with the valid code %d" % code,
            sends(lambda c, k=code: c.send_close(raw=struct.pack("!H", k)), kill_after=1), {OK: []},
            closing(True, [NORMAL, code], True), suppress_close=True, wrong_code_fails=True)
    for i, code in enumerate((0, 999, 1004, 1005, 1006, 1016, 1100, 2000, 2999), 1):
        add("7.9.%d" % i, "close with the invalid code %d" % code,
            sends(lambda c, k=code: c.send_close(raw=struct.pack("!H", k)), kill_after=1), {OK: []},
            closing(True, [PROTOCOL_ERROR], False), suppress_close=True, wrong_code_fails=True)
    for i, code in enumerate((5000, 65535), 1):
        add("7.13.%d" % i, "close with the code %d, outside every range" % code,
            sends(lambda c, k=code: c.send_close(raw=struct.pack("!H", k)), kill_after=1), {OK: []},
            closing(True, [NORMAL, code, PROTOCOL_ERROR], False), suppress_close=True, informational=True)


def limit_case(kind, size, binary, payload, fragment=None, chop=None, wait=100):
    """Section 9's cases: one big message, echoed back whole within `wait` seconds."""
    async def opening(conn):
        if fragment:
            await conn.send_message((payload * (size // len(payload) + 1))[:size], binary=binary,
                                    fragment_size=fragment)
        else:
            await conn.send_frame(2 if binary else 1, payload, payload_len=size, chopsize=chop)
        conn.close_after(wait)

    async def on_message(conn, event):
        _, data, was_binary = event
        state = conn.case.state
        if was_binary != binary:
            state["result"] = "Expected a %s message, got another type." % kind
        elif len(data) != size:
            state["result"] = "Expected %d bytes, got %d." % (size, len(data))
        else:
            state["behavior"] = OK
            state["result"] = "Received a %s message of %d bytes." % (kind, size)
        await conn.send_close(NORMAL)
    return opening, on_message


def round_trips(size, count, binary, wait):
    async def opening(conn):
        conn.case.state["count"] = 1
        await conn.send_frame(2 if binary else 1, b"\xfe" if binary else b"*", payload_len=size)
        conn.close_after(wait)

    async def on_message(conn, event):
        _, data, was_binary = event
        state = conn.case.state
        if was_binary != binary or len(data) != size:
            state["behavior"], state["result"] = FAILED, "An echo differs from what was sent."
            return await conn.send_close(NORMAL)
        if state["count"] < count:
            state["count"] += 1
            await conn.send_frame(2 if binary else 1, b"\xfe" if binary else b"*", payload_len=size)
        else:
            state["behavior"], state["result"] = OK, "Received all %d echoes." % count
            await conn.send_close(NORMAL)
    return opening, on_message


def add_limit_cases(add):
    mib = 1024 * 1024
    sizes = [64 * 1024, 256 * 1024, mib, 4 * mib, 8 * mib, 16 * mib]
    for sub, binary, payload, kind in ((1, False, b"BAsd7&jh23", "text"), (2, True, b"\x00\xfe\x23\xfa\xf0",
                                                                           "binary")):
        for i, size in enumerate(sizes, 1):
            opening, on_message = limit_case(kind, size, binary, payload, wait=10 if size <= 256 * 1024 else 100)
            add("9.%d.%d" % (sub, i), "a %s message of %s" % (kind, human(size)), opening, None, NORMAL_CLOSE,
                on_message=on_message)
    for sub, binary, payload, kind in ((3, False, b"*", "text"), (4, True, b"\xfe", "binary")):
        for i, fragment in enumerate([64, 256, 1024, 4096, 16384, 65536, 256 * 1024, mib, 4 * mib], 1):
            opening, on_message = limit_case(kind, 4 * mib, binary, payload, fragment=fragment)
            add("9.%d.%d" % (sub, i), "a %s message of 4 MiB in fragments of %s" % (kind, human(fragment)), opening,
                None, NORMAL_CLOSE, on_message=on_message)
    for sub, binary, payload, kind in ((5, False, b"BAsd7&jh23", "text"), (6, True, b"\x00\xfe\x23\xfa\xf0",
                                                                           "binary")):
        for i, chop in enumerate([64, 128, 256, 512, 1024, 2048], 1):
            opening, on_message = limit_case(kind, mib, binary, payload, chop=chop, wait=1000)
            add("9.%d.%d" % (sub, i), "a %s message of 1 MiB written in pieces of %d bytes" % (kind, chop), opening,
                None, NORMAL_CLOSE, on_message=on_message)
    for sub, binary, kind in ((7, False, "text"), (8, True, "binary")):
        for i, (size, count, wait) in enumerate([(0, 1000, 60), (16, 1000, 60), (64, 1000, 60), (256, 1000, 120),
                                                 (1024, 1000, 240), (4096, 1000, 480)], 1):
            opening, on_message = round_trips(size, count, binary, wait)
            add("9.%d.%d" % (sub, i), "%d %s messages of %d bytes, each echoed before the next" % (count, kind, size),
                opening, None, NORMAL_CLOSE, on_message=on_message)


def human(size):
    return "%d MiB" % (size // 1048576) if size >= 1048576 else "%d KiB" % (size // 1024) if size >= 1024 else \
        "%d bytes" % size


class Server:
    def __init__(self):
        self.cases = build_cases()
        self.by_id = {c.id: c for c in self.cases}
        self.results = {}
        self.finished = {}

    async def handle(self, reader, writer):
        sock = writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            writer.close()
            return
        lines = head.decode("latin-1").split("\r\n")
        method, target = lines[0].split(" ")[:2]
        fields = {}
        for line in lines[1:]:
            if ":" in line:
                name, value = line.split(":", 1)
                fields[name.strip().lower()] = value.strip()
        url = urllib.parse.urlsplit(target)
        query = dict(urllib.parse.parse_qsl(url.query))
        if url.path in ("/runCase", "/echo"):
            case = self.by_id.get(query.get("case")) if url.path == "/runCase" else None
            if url.path == "/runCase" and case is None:
                return await self.answer(writer, 404, {"error": "no case %s" % query.get("case")})
            key = fields.get("sec-websocket-key", "")
            if fields.get("upgrade", "").lower() != "websocket" or not key:
                return await self.answer(writer, 400, {"error": "not a WebSocket handshake"})
            accept = base64.b64encode(hashlib.sha1(key.encode() + GUID).digest()).decode()
            writer.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                          "Sec-WebSocket-Accept: %s\r\n\r\n" % accept).encode())
            await writer.drain()
            if case is None:
                return await self.echo(reader, writer)
            return await self.run(case, reader, writer)
        if url.path == "/cases":
            return await self.answer(writer, 200, [{"id": c.id, "section": c.section, "description": c.description}
                                                   for c in self.cases])
        if url.path == "/result":
            cid = query.get("case")
            event = self.finished.setdefault(cid, asyncio.Event())
            try:
                await asyncio.wait_for(event.wait(), 10)
            except asyncio.TimeoutError:
                return await self.answer(writer, 504, {"error": "case %s did not end within 10 s" % cid})
            return await self.answer(writer, 200, self.results[cid])
        await self.answer(writer, 404, {"error": "no route"})

    async def answer(self, writer, status, body):
        data = json.dumps(body).encode()
        writer.write(b"HTTP/1.1 %d X\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
                     b"Connection: close\r\n\r\n" % (status, len(data)) + data)
        try:
            await writer.drain()
        finally:
            writer.close()

    async def run(self, case, reader, writer):
        case.state = {}
        self.finished.setdefault(case.id, asyncio.Event()).clear()
        conn = Connection(reader, writer, case)
        start = time.monotonic()
        reading = asyncio.ensure_future(conn.read_frames())
        try:
            await case.opening(conn)
            await conn.done.wait()
        finally:
            for timer in conn.timers:
                timer.cancel()
            reading.cancel()
            conn.drop()
        behavior, result, close, close_result = case.grade(conn)
        self.results[case.id] = {"id": case.id, "behavior": behavior, "behaviorClose": close,
                                 "remoteCloseCode": conn.remote_close_code, "wasClean": conn.was_clean,
                                 "closedByMe": bool(conn.closed_by_me), "clientSentClose": conn.close_received,
                                 "result": result,
                                 "resultClose": close_result, "duration_ms": int((time.monotonic() - start) * 1000)}
        self.finished[case.id].set()

    async def echo(self, reader, writer):
        conn = Connection(reader, writer, Case("echo", "", None, suppress_close=True))
        conn.case.on_event = lambda c, e: asyncio.ensure_future(
            c.send_frame(2 if e[2] else 1, e[1])) if e[0] == "message" else None
        await conn.read_frames()


async def main_async(args):
    server = Server()
    listener = await asyncio.start_server(server.handle, "127.0.0.1", args.port, limit=1 << 20)
    port = listener.sockets[0].getsockname()[1]
    publish(args.port_file, "%d\n" % port)
    deadline = time.monotonic() + args.lifetime
    while time.monotonic() < deadline:
        if parent_gone(args.parent_pid):
            break
        await asyncio.sleep(0.5)
    listener.close()


def main():
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_SETMASK, set())
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--lifetime", type=float, default=1800)
    parser.add_argument("--parent-pid", type=int, default=0)
    parser.add_argument("--list", action="store_true", help="print the cases and exit")
    args = parser.parse_args()
    if args.list:
        for case in build_cases():
            print(case.id, case.description)
        return
    try:
        asyncio.run(main_async(args))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
