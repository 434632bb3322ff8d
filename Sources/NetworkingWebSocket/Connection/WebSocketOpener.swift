import Foundation
import NetworkingCore
import NetworkingHTTP

/// The innermost handler of a WebSocket's handshake, in place of the attempt's exchange: it adds a fresh key, asks
/// the transport to open the connection under the attempt's time limit, checks the answer (RFC 6455 §4.1), and
/// returns the `101` with the connection's life as its streaming body. Each connection it opens is kept until the
/// chain has answered: the one whose body the chain returned is the caller's; any other (a hedge that lost) is
/// closed.
final class WebSocketOpener: Sendable {
    let request: WebSocketRequest
    let attempt: Attempt
    let clock: any NetworkClock
    let random: WebSocketRandom
    private let opened = LockedBox<[(WebSocketConnection, String?)]>([])

    init(request: WebSocketRequest, attempt: Attempt, clock: any NetworkClock, random: WebSocketRandom) {
        self.request = request
        self.attempt = attempt
        self.clock = clock
        self.random = random
    }

    /// The connection whose body the chain returned, and its subprotocol; every other one opened is closed.
    func claim(_ body: HTTPBody) -> (WebSocketConnection, String?)? {
        let all = opened.withLock { opened in
            defer { opened = [] }
            return opened
        }
        var claimed: (WebSocketConnection, String?)?
        for entry in all {
            if claimed == nil, entry.0.lifetime == body {
                claimed = entry
            } else {
                entry.0.startClose(.goingAway, reason: "")
            }
        }
        return claimed
    }

    /// One attempt of the handshake.
    @Sendable func open(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
        let name = attempt.name
        var sent: HTTPRequest
        do { sent = try attempt.checked(request) } catch { throw attempt.recording(error) }
        let key = WebSocketHandshake.makeKey(random)
        sent.headerFields[.secWebSocketKey] = key
        guard let transport = attempt.transport as? any WebSocketTransport else {
            let error = WebSocketError(
                .unsupportedTransport,
                message: "the transport \(type(of: attempt.transport)) cannot open WebSocket connections")
            throw attempt.recording(
                NetworkError(
                    error.networkErrorKind, requestName: name, message: error.message,
                    builtRequest: attempt.builtRequest,
                    sentRequest: sent, underlyingError: error))
        }
        let (limit, scope) = attempt.timeLimit()
        let timedOut = attempt.timeoutError(scope: scope, limit: limit, sent: sent, what: "no answer to the handshake")
        guard limit > .zero else { throw attempt.recording(timedOut()) }
        let upgrade: WebSocketUpgrade
        do {
            let handshake = sent
            upgrade = try await withTimeLimit(
                limit, clock: attempt.clock, onTimeout: timedOut, discard: { $0.discard() },
                { try await transport.openWebSocket(handshake) })
        } catch let error as NetworkError {
            throw attempt.recording(error)
        } catch {
            throw attempt.recording(attempt.failure(error, sent: sent))
        }
        return try await accept(upgrade, sent: sent, key: key)
    }

    /// Checks the answer: a `101` that keeps RFC 6455 §4.1 opens the connection; anything else fails the attempt.
    private func accept(_ upgrade: WebSocketUpgrade, sent: HTTPRequest, key: String) async throws -> (
        HTTPResponse, HTTPBody
    ) {
        let response = upgrade.response
        let status = response.status.code
        guard status == 101, case .stream(let stream) = upgrade.content else {
            var data = Data()
            if case .refusal(let body) = upgrade.content { data = await Self.prefix(of: body) }
            upgrade.discard()
            throw attempt.recording(
                NetworkError(
                    .unacceptableStatus(status), requestName: attempt.name,
                    message: "the server answered \(response.status), not 101 Switching Protocols",
                    builtRequest: attempt.builtRequest, sentRequest: sent, response: response, body: data))
        }
        let subprotocol: String?
        switch WebSocketHandshake.check(response, key: key, subprotocols: request.subprotocols) {
        case .success(let chosen):
            subprotocol = chosen
        case .failure(let problem):
            upgrade.discard()
            let error = WebSocketError(
                .invalidHandshake, message: "the server's 101 is no WebSocket handshake: \(problem.reason)")
            throw attempt.recording(
                NetworkError(
                    error.networkErrorKind, requestName: attempt.name, message: error.message,
                    builtRequest: attempt.builtRequest, sentRequest: sent, response: response, underlyingError: error))
        }
        attempt.record.withLock { record in
            record.lastSent = sent
            record.append(.status(status))
        }
        let connection = WebSocketConnection(
            stream: stream,
            settings: .init(
                requestName: attempt.name, sentRequest: sent, response: response,
                maximumMessageSize: request.maximumMessageSize, bufferLimit: request.bufferLimit,
                pingInterval: request.pingInterval, closeTimeout: request.closeTimeout, clock: clock, random: random))
        opened.withLock { $0.append((connection, subprotocol)) }
        connection.start()
        return (response, connection.lifetime)
    }

    /// Up to 64 KiB of a refusal's body, for its error; the body is cancelled after.
    private static func prefix(of body: HTTPBody) async -> Data {
        if let data = body.data { return Data(data.prefix(Attempt.streamedErrorBodyLimit)) }
        defer { body.cancel() }
        var data = Data()
        do {
            for try await chunk in body {
                data.append(chunk.prefix(max(0, Attempt.streamedErrorBodyLimit - data.count)))
                if data.count >= Attempt.streamedErrorBodyLimit { break }
            }
        } catch {}
        return data
    }
}
