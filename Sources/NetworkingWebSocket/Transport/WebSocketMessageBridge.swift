import Foundation
import NetworkingCore
import NetworkingHTTP

/// A connection that does its own framing and speaks in whole messages, such as Apple's `URLSessionWebSocketTask`.
package protocol WebSocketMessageChannel: Sendable {
    /// Sends a message.
    func send(_ message: WebSocketMessage) async throws
    /// The next message; throws once the connection closed or failed (then ``closeFrame`` says whether the server
    /// closed it).
    func receive() async throws -> WebSocketMessage
    /// Sends a ping and returns when its pong came.
    func ping() async throws
    /// Runs the closing handshake with `code` and `reason`.
    func close(code: WebSocketCloseCode?, reason: Data)
    /// The server's close frame, once it came: its code (`nil` for none) and reason.
    var closeFrame: (code: WebSocketCloseCode?, reason: Data)? { get }
}

/// A ``WebSocketMessageChannel`` seen as the bytes of a connection, so the client runs the same connection code on
/// it as on a transport that hands over bytes: the channel's messages are written out as unmasked server frames, and
/// the client's frames are read back into messages, pings and the close (RFC 6455 §5).
///
/// The channel answers the server's pings itself; the client's ping goes out as the channel's and its pong comes back
/// as a frame; the client's close frame closes the channel and is answered with the server's close frame echoing its
/// code (the channel ran the real closing handshake). One message is received from the channel per read, so a reader
/// that stops reading stops receiving.
package final class WebSocketMessageBridge: WebSocketByteStream {
    private struct State {
        var pending: [Data] = []
        var reader: CheckedContinuation<Data?, any Error>?
        var receiving = false
        /// The end of the input, once known: `nil` as a value for a clean end.
        var end: Result<Void, any Error>?
        var closed = false
        var outbound = WebSocketInbound(maximumMessageSize: .max, expectsMaskedFrames: true)
    }

    private let channel: any WebSocketMessageChannel
    private let state = LockedBox(State())

    package init(_ channel: any WebSocketMessageChannel) {
        self.channel = channel
    }

    package func read() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                let (outcome, receive): (Result<Data?, any Error>?, Bool) = state.withLock { state in
                    if Task.isCancelled { return (.failure(CancellationError()), false) }
                    if !state.pending.isEmpty { return (.success(state.pending.removeFirst()), false) }
                    switch state.end {
                    case .success?: return (.success(nil), false)
                    case .failure(let error)?: return (.failure(error), false)
                    case nil: break
                    }
                    state.reader = continuation
                    defer { state.receiving = true }
                    return (nil, !state.receiving)
                }
                if let outcome { continuation.resume(with: outcome) }
                if receive { Task { await receiveOne() } }
            }
        } onCancel: {
            let reader = state.withLock { state in
                defer { state.reader = nil }
                return state.reader
            }
            reader?.resume(throwing: CancellationError())
        }
    }

    /// Receives one message from the channel for the reader, or learns how the connection ended.
    private func receiveOne() async {
        let frame: Data?
        var end: Result<Void, any Error>?
        do {
            let message = try await channel.receive()
            switch message {
            case .text(let text): frame = WebSocketFrameEncoding.frame(opcode: 0x1, payload: Data(text.utf8))
            case .binary(let data): frame = WebSocketFrameEncoding.frame(opcode: 0x2, payload: data)
            }
        } catch {
            if let (code, reason) = channel.closeFrame {
                var payload = WebSocketFrameEncoding.closePayload(code, reason: "")
                if code != nil { payload.append(reason.prefix(123)) }
                frame = WebSocketFrameEncoding.frame(opcode: 0x8, payload: payload)
                end = .success(())
            } else {
                frame = nil
                end = .failure(error)
            }
        }
        deliver(frame, end: end, fromReceive: true)
    }

    /// Hands `frame` to the reader (or queues it), and notes the end of the input.
    private func deliver(_ frame: Data?, end: Result<Void, any Error>? = nil, fromReceive: Bool = false) {
        let (reader, outcome): (CheckedContinuation<Data?, any Error>?, Result<Data?, any Error>?) = state.withLock {
            state in
            if fromReceive { state.receiving = false }
            if let frame { state.pending.append(frame) }
            if let end, state.end == nil { state.end = end }
            guard let reader = state.reader else { return (nil, nil) }
            if !state.pending.isEmpty {
                state.reader = nil
                return (reader, .success(state.pending.removeFirst()))
            }
            switch state.end {
            case .success?:
                state.reader = nil
                return (reader, .success(nil))
            case .failure(let error)?:
                state.reader = nil
                return (reader, .failure(error))
            case nil:
                // Nothing for the reader yet (a receive brings a frame or the end): it waits.
                return (nil, nil)
            }
        }
        if let reader, let outcome { reader.resume(with: outcome) }
    }

    package func write(_ bytes: Data) async throws {
        let events: [WebSocketInbound.Event] = try state.withLock { state in
            guard !state.closed else { throw TransportError(.connectionLost, "the connection is closed") }
            state.outbound.append(bytes)
            var events: [WebSocketInbound.Event] = []
            do {
                while let event = try state.outbound.next() { events.append(event) }
            } catch {
                throw TransportError(.other, "the client's frame could not be read: \(error)")
            }
            return events
        }
        for event in events {
            switch event {
            case .message(let message):
                try await channel.send(message)
            case .ping(let payload):
                let channel = channel
                Task {
                    do {
                        try await channel.ping()
                        deliver(WebSocketFrameEncoding.frame(opcode: 0xA, payload: payload))
                    } catch {}
                }
            case .pong:
                break  // the channel answers the server's pings itself
            case .close(let code, let reason):
                channel.close(code: code, reason: Data(reason.utf8))
                deliver(
                    WebSocketFrameEncoding.frame(
                        opcode: 0x8, payload: WebSocketFrameEncoding.closePayload(code, reason: "")),
                    end: .success(()))
            }
        }
    }

    package func close() {
        let first = state.withLock { state in
            defer { state.closed = true }
            return !state.closed
        }
        guard first else { return }
        channel.close(code: nil, reason: Data())
        deliver(nil, end: .success(()))
    }
}
