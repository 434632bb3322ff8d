import Foundation
import NetworkingCore
import NetworkingHTTP

/// One open WebSocket over a byte stream: the client's side of RFC 6455 after the handshake, the same on every
/// transport. A reader task reads the network while there is room for what it reads (``WebSocketRequest/bufferLimit``),
/// answers pings, and hands whole messages to the one consumer; a writer task writes frames in the order they were
/// queued, so a frame is never cut by another and nothing follows the close frame (§5.5.1).
///
/// The connection's life is also the life of its handshake's response body (`lifetime`), which behaviors see
/// streaming: the activity counter counts the connection until it ends, logging writes its end, and a behavior
/// that cancels the body (a hedge that lost) closes the connection.
final class WebSocketConnection: Sendable {
    struct Settings: Sendable {
        let requestName: String
        let sentRequest: HTTPRequest
        let response: HTTPResponse
        let maximumMessageSize: Int
        let bufferLimit: Int
        let pingInterval: Duration?
        let closeTimeout: Duration
        let clock: any NetworkClock
        let random: WebSocketRandom
    }

    struct Outgoing: Sendable {
        let bytes: Data
        let done: CheckedContinuation<Void, any Error>?
    }

    struct State {
        var queue: [WebSocketMessage] = []
        var head = 0
        var bufferedBytes = 0
        /// The consumer waiting for a message.
        var consumer: CheckedContinuation<WebSocketMessage?, any Error>?
        /// The reader task waiting for room.
        var room: CheckedContinuation<Void, Never>?
        /// The code of the close frame sent, once one is queued; then no other frame is.
        var closeSent: WebSocketCloseCode??
        var closedByClient = false
        /// The code and reason of the server's close frame, once it came.
        var closeReceived: (WebSocketCloseCode?, String)?
        var failure: WebSocketError?
        var ended = false
        var endWaiters: [CheckedContinuation<Void, Never>] = []
        var pings: [(Data, CheckedContinuation<Void, any Error>)] = []
        var pingCount: UInt64 = 0
        var awaitingPong = false
        var timers: [ClockTimer] = []
        var pingTimer: ClockTimer?

        /// The consumer, taken, once every queued message is read: it is to be told the end of the messages.
        mutating func takeConsumerAtEnd() -> CheckedContinuation<WebSocketMessage?, any Error>? {
            guard head >= queue.count, let consumer else { return nil }
            self.consumer = nil
            return consumer
        }
    }

    let stream: any WebSocketByteStream
    let settings: Settings
    let state = LockedBox(State())
    let outgoing: AsyncStream<Outgoing>.Continuation
    private let frames: AsyncStream<Outgoing>
    /// The handshake's response body, streaming for as long as the connection is open.
    let lifetime: HTTPBody
    private let lifetimeContinuation: HTTPBody.Continuation

    init(stream: any WebSocketByteStream, settings: Settings) {
        self.stream = stream
        self.settings = settings
        (frames, outgoing) = AsyncStream.makeStream(of: Outgoing.self)
        (lifetime, lifetimeContinuation) = HTTPBody.makeStream(bufferLimit: 1)
    }

    /// Starts reading and writing, and the periodic ping if one is set.
    func start() {
        lifetimeContinuation.onTermination { [self] termination in
            if case .cancelled = termination.outcome { startClose(.goingAway, reason: "") }
        }
        let frames = frames
        Task { [self] in await writeLoop(frames) }
        Task { [self] in await readLoop() }
        if let interval = settings.pingInterval, interval > .zero { schedulePing(after: interval) }
    }

    // MARK: Reading

    private func readLoop() async {
        var inbound = WebSocketInbound(maximumMessageSize: settings.maximumMessageSize)
        do {
            while true {
                await waitForRoom()
                guard let bytes = try await stream.read() else { break }
                inbound.append(bytes)
                while true {
                    let event: WebSocketInbound.Event?
                    do {
                        event = try inbound.next()
                    } catch {
                        fail(Self.error(for: error), sending: error.code)
                        break
                    }
                    guard let event else { break }
                    handle(event)
                }
            }
            end(nil)
        } catch {
            end(error)
        }
    }

    /// Waits while the messages not yet consumed fill the buffer, unless the connection is closing.
    private func waitForRoom() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let wait = state.withLock { state in
                guard state.bufferedBytes >= settings.bufferLimit, state.closeSent == nil, !state.ended else {
                    return false
                }
                state.room = continuation
                return true
            }
            if !wait { continuation.resume() }
        }
    }

    private func handle(_ event: WebSocketInbound.Event) {
        switch event {
        case .message(let message):
            let consumer: CheckedContinuation<WebSocketMessage?, any Error>? = state.withLock { state in
                // After a close frame was sent, the client is done with messages (§5.5.1 lets it drop them).
                guard state.closeSent == nil, state.failure == nil else { return nil }
                if let consumer = state.consumer {
                    state.consumer = nil
                    return consumer
                }
                state.queue.append(message)
                state.bufferedBytes += Self.size(of: message)
                return nil
            }
            consumer?.resume(returning: message)
        case .ping(let payload):
            // §5.5.2: a pong with the ping's payload, as soon as practical; none once the close frame is out.
            let frame = encode(.pong, payload)
            state.withLock { state in
                if state.closeSent == nil { outgoing.yield(Outgoing(bytes: frame, done: nil)) }
            }
        case .pong(let payload):
            let answered: [CheckedContinuation<Void, any Error>] = state.withLock { state in
                state.awaitingPong = false
                // A pong answers its ping and every one before it (§5.5.3: an endpoint may answer only the latest).
                guard let index = state.pings.firstIndex(where: { $0.0 == payload }) else { return [] }
                defer { state.pings.removeFirst(index + 1) }
                return state.pings[...index].map(\.1)
            }
            for ping in answered { ping.resume() }
        case .close(let code, let reason):
            // §5.5.1: answer with a close echoing the code, then wait for the server to close the connection.
            let frame = encode(.close, WebSocketFrameEncoding.closePayload(code, reason: ""))
            let consumer: CheckedContinuation<WebSocketMessage?, any Error>? = state.withLock { state in
                state.closeReceived = (code, reason)
                if state.closeSent == nil { queueClose(frame, code: code, in: &state) }
                return state.takeConsumerAtEnd()
            }
            consumer?.resume(returning: nil)
        }
    }

    /// Fails the connection (§7.1.7): the close frame with `code` if none went out yet, then the end of the messages
    /// with `error`; the connection closes when the server closes it or the close timeout passes.
    func fail(_ error: WebSocketError, sending code: WebSocketCloseCode?) {
        let frame = code.map { encode(.close, WebSocketFrameEncoding.closePayload($0, reason: "")) }
        let consumer: CheckedContinuation<WebSocketMessage?, any Error>? = state.withLock { state in
            guard state.failure == nil, !state.ended else { return nil }
            state.failure = error
            if state.closeSent == nil, let frame { queueClose(frame, code: code, in: &state) }
            return state.takeConsumerAtEnd()
        }
        consumer?.resume(throwing: networkError(error))
        if code == nil { stream.close() }
    }

    /// The connection is over: the stream ended or failed. Everyone waiting learns how it ended.
    private func end(_ readError: (any Error)?) {
        let (consumer, room, waiters, pings, timers, outcome):
            (
                CheckedContinuation<WebSocketMessage?, any Error>?, CheckedContinuation<Void, Never>?,
                [CheckedContinuation<Void, Never>], [CheckedContinuation<Void, any Error>], [ClockTimer],
                WebSocketError?
            ) = state.withLock { state in
                guard !state.ended else { return (nil, nil, [], [], [], nil) }
                state.ended = true
                if state.failure == nil, state.closeReceived == nil, !state.closedByClient {
                    let cause = readError.map { ": \($0)" } ?? ""
                    state.failure = WebSocketError(
                        .connectionLost,
                        message: "the connection ended without a closing handshake (1006 abnormalClosure)\(cause)",
                        closeCode: .abnormalClosure)
                }
                let consumer = state.head >= state.queue.count ? state.consumer : nil
                if consumer != nil { state.consumer = nil }
                defer {
                    state.room = nil
                    state.endWaiters = []
                    state.pings = []
                    state.timers = []
                }
                let timers = state.timers + (state.pingTimer.map { [$0] } ?? [])
                state.pingTimer = nil
                return (consumer, state.room, state.endWaiters, state.pings.map(\.1), timers, state.failure)
            }
        stream.close()
        outgoing.finish()
        for timer in timers { timer.cancel() }
        if let consumer {
            if let outcome { consumer.resume(throwing: networkError(outcome)) } else { consumer.resume(returning: nil) }
        }
        room?.resume()
        let closed = networkError(
            WebSocketError(.closed, message: "the connection closed before the pong came", closeCode: closeCode))
        for ping in pings { ping.resume(throwing: closed) }
        if let outcome {
            lifetimeContinuation.finish(throwing: networkError(outcome))
        } else {
            lifetimeContinuation.finish()
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The code the connection closed with: the server's (1005 for a close frame without one), the one the client
    /// failed it with, or 1006 when it ended without a close frame; `nil` while open.
    var closeCode: WebSocketCloseCode? {
        state.withLock { state in
            if let received = state.closeReceived { return received.0 ?? .noStatusReceived }
            if let failure = state.failure { return failure.closeCode ?? .abnormalClosure }
            return state.ended ? .abnormalClosure : nil
        }
    }

    /// The reason of the server's close frame; `nil` before one came.
    var closeReason: String? { state.withLock { $0.closeReceived?.1 } }

    static func size(of message: WebSocketMessage) -> Int {
        switch message {
        case .text(let text): text.utf8.count
        case .binary(let data): data.count
        }
    }

    static func error(for violation: WebSocketProtocolViolation) -> WebSocketError {
        let kind: WebSocketError.Kind =
            switch violation.code {
            case .invalidFramePayloadData: .invalidText
            case .messageTooBig: .messageTooBig
            default: .protocolViolation
            }
        return WebSocketError(kind, message: violation.description, closeCode: violation.code)
    }

    /// `error` as the caller gets it: a `NetworkError` naming the request.
    func networkError(_ error: WebSocketError) -> NetworkError {
        NetworkError(
            error.networkErrorKind, requestName: settings.requestName, message: error.message,
            sentRequest: settings.sentRequest, response: settings.response, underlyingError: error)
    }
}
