import Foundation
import NetworkingCore
import NetworkingHTTP

extension WebSocketConnection {
    /// A frame of the client's: FIN set, masked with a fresh random key (§5.3).
    func encode(_ opcode: WebSocketOpcode, _ payload: Data) -> Data {
        WebSocketFrameEncoding.frame(opcode: opcode.rawValue, payload: payload, maskKey: settings.random.bytes(4))
    }

    /// Writes the queued frames in order until the connection ends; a frame queued after a write failed is refused.
    func writeLoop(_ frames: AsyncStream<Outgoing>) async {
        var failure: (any Error)?
        for await frame in frames {
            if let failure {
                frame.done?.resume(throwing: failure)
                continue
            }
            do {
                try await stream.write(frame.bytes)
                frame.done?.resume()
            } catch {
                let lost = networkError(
                    WebSocketError(
                        .connectionLost, message: "the connection failed while sending: \(error)",
                        closeCode: .abnormalClosure))
                failure = lost
                frame.done?.resume(throwing: lost)
                stream.close()
            }
        }
    }

    /// Queues `frame` unless the closing handshake has begun, and waits until it is written.
    func sendFrame(_ frame: Data, what: String) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let refusal: WebSocketError? = state.withLock { state in
                guard state.closeSent == nil, !state.ended else { return closedError(state, what: what) }
                outgoing.yield(Outgoing(bytes: frame, done: continuation))
                return nil
            }
            if let refusal { continuation.resume(throwing: networkError(refusal)) }
        }
    }

    func closedError(_ state: State, what: String) -> WebSocketError {
        if let failure = state.failure {
            return WebSocketError(
                .closed, message: "\(what) on a failed connection: \(failure.message)", closeCode: failure.closeCode)
        }
        let code = state.closeReceived.map { $0.0 ?? .noStatusReceived } ?? state.closeSent.flatMap { $0 }
        return WebSocketError(
            .closed, message: "\(what) on a connection that is closing or closed (\(code.map { "\($0)" } ?? "1006"))",
            closeCode: code)
    }

    /// Sends a ping and waits for its pong.
    func ping() async throws {
        // Each ping carries its number, so a pong tells which ping it answers.
        let payload: Data = state.withLock { state in
            state.pingCount += 1
            let count = state.pingCount
            return Data((0..<8).map { UInt8(truncatingIfNeeded: count >> (56 - 8 * $0)) })
        }
        let bytes = encode(.ping, payload)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let refusal: WebSocketError? = state.withLock { state in
                    if Task.isCancelled { return nil }
                    guard state.closeSent == nil, !state.ended else { return closedError(state, what: "a ping") }
                    state.pings.append((payload, continuation))
                    outgoing.yield(Outgoing(bytes: bytes, done: nil))
                    return nil
                }
                if let refusal {
                    continuation.resume(throwing: networkError(refusal))
                } else if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let waiting = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.pings.firstIndex(where: { $0.0 == payload }) else { return nil }
                return state.pings.remove(at: index).1
            }
            waiting?.resume(throwing: CancellationError())
        }
    }

    /// Starts the closing handshake (§7.1.2) unless it has begun: the close frame goes out after what is queued, and
    /// the connection closes when the server has answered and closed it, or when the close timeout passes.
    func startClose(_ code: WebSocketCloseCode, reason: String) {
        let frame = encode(.close, WebSocketFrameEncoding.closePayload(code, reason: reason))
        state.withLock { state in
            guard state.closeSent == nil, !state.ended else { return }
            state.closedByClient = true
            queueClose(frame, code: code, in: &state)
            // A reader held back by a full buffer reads on, to see the server's close.
            if let room = state.room {
                state.room = nil
                room.resume()
            }
        }
    }

    /// Waits until the connection has ended.
    func waitForEnd() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ended = state.withLock { state in
                if !state.ended { state.endWaiters.append(continuation) }
                return state.ended
            }
            if ended { continuation.resume() }
        }
    }

    /// Queues the close frame `frame` (of `code`, nil for none) after what is queued, and starts the close timeout;
    /// under the state's lock, once the caller has seen that no close frame went out yet.
    func queueClose(_ frame: Data, code: WebSocketCloseCode?, in state: inout State) {
        state.closeSent = .some(code)
        outgoing.yield(Outgoing(bytes: frame, done: nil))
        state.timers.append(closeTimer())
    }

    /// The timer that closes the connection if the server has not closed it within the close timeout.
    func closeTimer() -> ClockTimer {
        settings.clock.schedule(after: settings.closeTimeout) { [stream] in stream.close() }
    }

    /// Sends a ping every interval; one still unanswered when the next is due fails the connection.
    func schedulePing(after interval: Duration) {
        let timer = settings.clock.schedule(after: interval) { [self] in
            let frame = encode(.ping, Data())
            let due: Bool? = state.withLock { state in
                guard !state.ended, state.closeSent == nil else { return nil }
                if state.awaitingPong { return false }
                state.awaitingPong = true
                outgoing.yield(Outgoing(bytes: frame, done: nil))
                return true
            }
            switch due {
            case true?:
                schedulePing(after: interval)
            case false?:
                fail(
                    WebSocketError(
                        .pingTimeout, message: "no pong came within the ping interval of \(interval)",
                        closeCode: .abnormalClosure), sending: nil)
            case nil:
                break
            }
        }
        let stale: ClockTimer? = state.withLock { state in
            if state.ended { return timer }
            state.pingTimer = timer
            return nil
        }
        stale?.cancel()
    }
}
