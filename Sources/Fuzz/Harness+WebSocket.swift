import Foundation
import Networking
import NetworkingWebSocket

extension Harness {
    /// The WebSocket frame reader, on what a server sends: the same events (or the same violation) in any cut of
    /// the bytes; every message within the limit, text valid UTF-8, control
    /// payloads within 125 bytes, close codes ones that may be sent; after a close or a violation, nothing more.
    static func webSocketFrames(_ data: Data) {
        let body = Data(data.dropFirst())
        let maximum = 4096
        let (expected, expectedFailure) = webSocketEvents([body], maximum: maximum)
        let (got, failure) = webSocketEvents(chunks(data), maximum: maximum)
        check(got == expected, "the events do not depend on how the bytes were cut")
        check(failure?.code == expectedFailure?.code, "nor does the violation")
        for event in got {
            switch event {
            case .message(.text(let text)):
                check(text.utf8.count <= maximum, "a text message is within the limit")
                var utf8 = UTF8Validation()
                check(utf8.feed(Array(text.utf8)) && utf8.isComplete, "text is valid UTF-8")
            case .message(.binary(let bytes)):
                check(bytes.count <= maximum, "a binary message is within the limit")
            case .ping(let payload), .pong(let payload):
                check(payload.count <= 125, "a control frame carries at most 125 bytes")
            case .close(let code, let reason):
                check(code.map(\.canBeSent) ?? reason.isEmpty, "a close code is one that may be sent")
            }
        }
        if let failure {
            check([1002, 1007, 1009].contains(failure.code.rawValue), "a violation closes with 1002, 1007 or 1009")
        }
    }

    private static func webSocketEvents(_ pieces: [Data], maximum: Int) -> (
        [WebSocketInbound.Event], WebSocketProtocolViolation?
    ) {
        var reader = WebSocketInbound(maximumMessageSize: maximum)
        var events: [WebSocketInbound.Event] = []
        do {
            for piece in pieces {
                reader.append(piece)
                while let event = try reader.next() { events.append(event) }
            }
        } catch {
            check(reader.isFinished, "a violation finishes the reader")
            return (events, error)
        }
        if case .close = events.last { check(reader.isFinished, "a close finishes the reader") }
        return (events, nil)
    }
}
