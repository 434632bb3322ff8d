import CCurlShim
import Foundation
import NetworkingCore
import NetworkingHTTP
import NetworkingWebSocket

extension CurlWebSocket {
    /// The most of a refusal's body kept for its error (the client keeps as much).
    static let refusalBodyLimit = 64 * 1024

    /// Reads the server's answer to the handshake: a `101` opens the connection, any other status is read with its
    /// body and handed back as a refusal (loop thread).
    func readAnswer(scratch: UnsafeMutableRawBufferPointer) {
        while phase == .handshaking {
            let count: Int?
            do { count = try receive(scratch, limit: scratch.count) } catch { return fail(error) }
            guard let count else { return }
            guard count > 0 else {
                return fail(
                    TransportError(
                        .badServerResponse, "the server closed the connection without answering the handshake"))
            }
            incoming.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<count]))
            let head: HTTP1Upgrade.Head?
            do throws(HTTP1Upgrade.Problem) {
                head = try HTTP1Upgrade.readHead(incoming, url: request.url)
            } catch {
                return fail(TransportError(.badServerResponse, "the answer to the handshake is no HTTP/1.1: \(error)"))
            }
            guard let head else { continue }
            let rest = incoming[head.length...]
            incoming = []
            guard head.response.status.code == 101 else {
                do throws(HTTP1Upgrade.Problem) {
                    refusal = (head.response, try HTTP1Upgrade.framing(of: head.response))
                } catch {
                    return fail(TransportError(.badServerResponse, "the answer to the handshake: \(error)"))
                }
                incoming = Array(rest)
                phase = .refused
                return readRefusal(scratch: scratch)
            }
            phase = .open
            let opening: CheckedContinuation<WebSocketUpgrade, any Error>? = shared.withLock { shared in
                if !rest.isEmpty {
                    shared.chunks = [Data(rest)]
                    shared.buffered = rest.count
                }
                defer { shared.opening = nil }
                return shared.opening
            }
            guard let opening, let transport else { return fail(CancellationError()) }
            // The loop thread holds the transport no longer than this: the stream keeps it from now on.
            self.transport = nil
            opening.resume(
                returning: WebSocketUpgrade(
                    switchingProtocols: head.response, stream: CurlWebSocketStream(self, transport: transport)))
            return readOpen(scratch: scratch)
        }
    }

    /// Reads a refused answer's body as its framing says (RFC 9112 §6.3), keeping its first 64 KiB, then hands the
    /// answer back and closes the connection (loop thread).
    func readRefusal(scratch: UnsafeMutableRawBufferPointer) {
        guard let (response, framing) = refusal else { return }
        while phase == .refused {
            var body: [UInt8]?
            switch framing {
            case .length(let length):
                if incoming.count >= min(length, Self.refusalBodyLimit) { body = Array(incoming.prefix(length)) }
            case .chunked:
                do throws(HTTP1Upgrade.Problem) {
                    let (data, complete) = try HTTP1Upgrade.dechunk(incoming)
                    if complete || data.count >= Self.refusalBodyLimit { body = data }
                } catch {
                    return fail(TransportError(.badServerResponse, "the answer to the handshake: \(error)"))
                }
            case .untilClose:
                if incoming.count >= Self.refusalBodyLimit { body = incoming }
            }
            if let body { return refused(response, body: body) }
            let count: Int?
            do { count = try receive(scratch, limit: scratch.count) } catch { return fail(error) }
            guard let count else { return }
            guard count > 0 else {
                if case .untilClose = framing { return refused(response, body: incoming) }
                return fail(
                    TransportError(.connectionLost, "the connection closed inside the body of the handshake's answer"))
            }
            incoming.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<count]))
        }
    }

    private func refused(_ response: HTTPResponse, body: [UInt8]) {
        phase = .closed
        let opening = shared.withLock { shared in
            defer { shared.opening = nil }
            return shared.opening
        }
        let kept = Data(body.prefix(Self.refusalBodyLimit))
        opening?.resume(returning: WebSocketUpgrade(refusal: response, body: HTTPBody(kept)))
    }

    /// Reads the open connection's bytes for the reader, up to ``readAhead`` ahead of it and one ``readAhead`` per
    /// round, so one busy connection never holds the loop thread (loop thread).
    func readOpen(scratch: UnsafeMutableRawBufferPointer) {
        wantsRead = false
        readsAgain = false
        var budget = Self.readAhead
        while phase == .open, budget > 0 {
            let room = shared.withLock { shared -> Int in
                let room = Self.readAhead - shared.buffered
                if room <= 0 { shared.paused = true }
                return room
            }
            guard room > 0 else { return }
            let count: Int?
            do { count = try receive(scratch, limit: min(room, budget)) } catch { return fail(error) }
            guard let count else { return }
            guard count > 0 else { return endInput(nil) }
            budget -= count
            let data = Data(UnsafeRawBufferPointer(rebasing: scratch[0..<count]))
            let reader = shared.withLock { shared -> CheckedContinuation<Data?, any Error>? in
                if let reader = shared.reader {
                    shared.reader = nil
                    return reader
                }
                shared.chunks.append(data)
                shared.buffered += count
                return nil
            }
            reader?.resume(returning: data)
        }
        // Out of budget with bytes maybe still there, perhaps already read off the socket by TLS (then the socket
        // is not readable, and waiting for it would strand them): the next round reads again without waiting.
        if phase == .open, budget <= 0 { readsAgain = true }
    }

    /// The input ended: the server closed the connection (`nil`) or it failed. The reader gets the bytes already
    /// received, then the end; writes fail from now on, and the connection is closed (loop thread).
    func endInput(_ error: (any Error)?) {
        phase = .closed
        let lost = TransportError(.connectionLost, "the connection is closed")
        let (reader, writes) = shared.withLock { shared in
            shared.inputEnd = error.map { .failure($0) } ?? .success(())
            if shared.writeFailure == nil { shared.writeFailure = error ?? lost }
            defer {
                shared.reader = nil
                shared.writes = []
            }
            return (shared.reader, shared.writes.map(\.1))
        }
        if let reader {
            if let error { reader.resume(throwing: error) } else { reader.resume(returning: nil) }
        }
        for write in writes { write.resume(throwing: error ?? lost) }
        outgoingDone?.resume(throwing: error ?? lost)
        outgoingDone = nil
    }

    /// Fails the connection (loop thread): a handshake still waiting gets `error`; an open connection ends its input
    /// with it. The registry then closes the connection.
    func fail(_ error: any Error) {
        let wasOpen = phase == .open
        phase = .closed
        if wasOpen { return endInput(error) }
        let opening = shared.withLock { shared in
            defer { shared.opening = nil }
            return shared.opening
        }
        opening?.resume(throwing: error)
    }
}
