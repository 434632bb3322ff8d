import CCurlShim
import Foundation
import NetworkingCore
import NetworkingHTTP
import NetworkingWebSocket

/// One WebSocket connection of a ``CurlTransport``: libcurl opens it (a `CURLOPT_CONNECT_ONLY` transfer in the
/// transport's multi handle, with the settings of its HTTP transfers: trust, pins, identity, proxy and `CONNECT`
/// tunnel), then the loop thread writes the handshake, reads the answer, and moves the connection's bytes with
/// `curl_easy_send` and `curl_easy_recv` whenever `curl_multi_poll` finds the socket ready.
///
/// libcurl 7.88 keeps a connect-only connection only while its easy handle stays in the multi handle
/// (`Curl_getconnectinfo` looks it up through the handle's multi; `curl_multi_remove_handle` closes it), so the
/// handle stays there, finished, until the connection is closed. libcurl never touches the socket meanwhile: a
/// finished transfer asks `curl_multi_poll` for nothing. `curl_easy_send` and `curl_easy_recv` find the connection by
/// the handle's last connection id in the multi handle's cache (`Curl_getconnectinfo`) and attach it to the handle,
/// which marks it in use: from the handshake's first write on, no other transfer can take or close it. Before that
/// (within the round of `curl_multi_perform` that finished the connect), it sits idle in the cache like a pooled
/// connection, and a transfer to the same host that finds the host's connections all taken may close it to open its
/// own (`Curl_conncache_extract_bundle`): the handshake then fails with a typed error, never hangs. While open, the
/// connection counts toward the host's connection limit.
///
/// The caller's side (``read()``, ``write(_:)``, ``close()``) and the loop thread share `shared`, behind a lock; the
/// rest is the loop thread's alone, hence `@unchecked Sendable`.
final class CurlWebSocket: @unchecked Sendable {
    /// Work handed to the loop thread for a connection.
    enum Command {
        /// Put the connect-only transfer in the multi handle.
        case open(CurlWebSocket)
        /// The reader made room or a write was queued: move bytes.
        case poke(CurlWebSocket)
        /// Close the connection (the caller closed it, or gave up on the handshake).
        case close(CurlWebSocket)
    }

    enum Phase {
        case idle, connecting, handshaking, refused, open, closed
    }

    struct Shared {
        /// The caller waiting for the handshake's answer.
        var opening: CheckedContinuation<WebSocketUpgrade, any Error>?
        /// The caller closed the connection (or cancelled the handshake).
        var closed = false
        /// Bytes received, not read yet, and their count.
        var chunks: [Data] = []
        var buffered = 0
        /// How the input ended: `nil` while open; success for the server's close, the error for a failure.
        var inputEnd: Result<Void, any Error>?
        /// The reader waiting for bytes.
        var reader: CheckedContinuation<Data?, any Error>?
        /// The loop stopped reading for want of room: the reader pokes it when it has taken the bytes.
        var paused = false
        /// Writes waiting for the loop, in order.
        var writes: [(Data, CheckedContinuation<Void, any Error>)] = []
        /// Why writing is over; later writes fail with it.
        var writeFailure: (any Error)?
        /// A poke is on its way to the loop.
        var poked = false
    }

    /// What the loop reads ahead of the reader: past it, the socket is left unread and TCP slows the server down.
    static let readAhead = 64 * 1024

    let loop: CurlLoop
    /// The transport, handed to the caller's stream with the connection; `nil` once handed over (loop thread).
    var transport: CurlTransport?
    let raw: ncurl_raw_api
    let request: HTTPRequest
    let shared = LockedBox(Shared())

    // Loop thread only.
    var easy: UnsafeMutableRawPointer?
    var socket: Int32 = -1
    var phase = Phase.idle
    /// The bytes being written (the handshake, or one frame of the caller's) at a stable address, as libcurl's TLS
    /// back end needs a write it could not finish to be repeated with the same buffer.
    var outgoing: UnsafeMutableRawBufferPointer?
    var outgoingOffset = 0
    var outgoingDone: CheckedContinuation<Void, any Error>?
    /// The answer's bytes so far, while the handshake is read (then the refused answer's body).
    var incoming: [UInt8] = []
    var refusal: (HTTPResponse, HTTP1Upgrade.BodyFraming)?
    var wantsRead = false
    var wantsWrite = false
    /// Read again next round whatever the socket says: a round's share was read and more may be buffered in TLS.
    var readsAgain = false
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: 256)

    init(transport: CurlTransport, raw: ncurl_raw_api, request: HTTPRequest) {
        self.loop = transport.loop
        self.transport = transport
        self.raw = raw
        self.request = request
        errorBuffer.initialize(repeating: 0, count: 256)
    }

    deinit {
        outgoing?.deallocate()
        errorBuffer.deallocate()
    }

    var api: UnsafeMutablePointer<ncurl_api> { loop.library.api }

    /// The error the handshake fails with for libcurl's `code`, in its words.
    func failure(code: Int32) -> TransportError {
        let detail = String(cString: errorBuffer)
        return CurlFailure.error(code: code, message: detail.isEmpty ? loop.library.describe(code) : detail)
    }

    /// The error for `curl_easy_send` or `curl_easy_recv` failing with `code` while `doing`, classified as an HTTP
    /// transfer's: a lost connection, unless it is TLS refusing (a TLS 1.3 server refuses a client certificate with
    /// an alert the first read meets).
    func ioFailure(code: Int32, while doing: String) -> TransportError {
        var error = failure(code: code)
        error.message = "the connection failed while \(doing): \(error.message)"
        return error
    }

    // MARK: Loop thread

    /// The connect-only transfer finished (loop thread): with the connection open, the handshake goes out.
    func connected(result: Int32) {
        guard phase == .connecting else { return }
        guard result == 0 else { return fail(failure(code: result)) }
        var fd: Int32 = -1
        guard ncurl_getinfo_socket(api, easy, CurlOption.infoActiveSocket, &fd) == 0, fd >= 0 else {
            return fail(TransportError(.other, "libcurl gave no socket for the connection"))
        }
        socket = fd
        phase = .handshaking
        queue(HTTP1Upgrade.requestHead(request), done: nil)
    }

    /// Moves what can be moved now: the handshake's bytes, the answer, the caller's frames and the server's bytes.
    func service(scratch: UnsafeMutableRawBufferPointer) {
        switch phase {
        case .handshaking:
            guard flush() else { return }
            readAnswer(scratch: scratch)
        case .refused:
            readRefusal(scratch: scratch)
        case .open:
            while flush(), let (bytes, done) = nextWrite() { queue(bytes, done: done) }
            readOpen(scratch: scratch)
        case .idle, .connecting, .closed:
            break
        }
    }

    /// Copies `bytes` to the outgoing buffer (one at a time: the caller's writes are sequential).
    private func queue(_ bytes: Data, done: CheckedContinuation<Void, any Error>?) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 1)
        bytes.copyBytes(to: buffer)
        outgoing = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<bytes.count])
        outgoingOffset = 0
        outgoingDone = done
    }

    private func nextWrite() -> (Data, CheckedContinuation<Void, any Error>)? {
        shared.withLock { shared in
            shared.writes.isEmpty ? nil : shared.writes.removeFirst()
        }
    }

    /// Sends what is left of the outgoing bytes; `true` once none is left. A write libcurl could not finish is
    /// repeated with the same pointer and length (OpenSSL's rule for a retried `SSL_write`).
    private func flush() -> Bool {
        wantsWrite = false
        guard let buffer = outgoing else { return true }
        while outgoingOffset < buffer.count {
            var sent = 0
            let code = withUnsafePointer(to: raw) {
                ncurl_send($0, easy, buffer.baseAddress! + outgoingOffset, buffer.count - outgoingOffset, &sent)
            }
            if code == Self.again {
                wantsWrite = true
                return false
            }
            guard code == 0 else {
                fail(ioFailure(code: code, while: "sending"))
                return false
            }
            outgoingOffset += sent
        }
        buffer.deallocate()
        outgoing = nil
        let done = outgoingDone
        outgoingDone = nil
        done?.resume()
        return true
    }

    /// Reads once into `scratch`: the byte count, 0 at the end of the input, `nil` when nothing is there yet.
    func receive(_ scratch: UnsafeMutableRawBufferPointer, limit: Int) throws(TransportError) -> Int? {
        var count = 0
        let code = withUnsafePointer(to: raw) {
            ncurl_recv($0, easy, scratch.baseAddress, min(limit, scratch.count), &count)
        }
        if code == Self.again {
            wantsRead = true
            return nil
        }
        guard code == 0 else {
            throw ioFailure(code: code, while: "receiving")
        }
        return count
    }

    /// CURLE_AGAIN: the socket is not ready.
    static let again: Int32 = 81
}
