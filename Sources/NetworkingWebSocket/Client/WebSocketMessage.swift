import Foundation

/// One WebSocket message, whole: a text or binary message of any number of frames, reassembled (RFC 6455 §5.6).
///
/// ```swift
/// let socket = try await client.webSocket(WebSocketRequest(path: "/chat"))
/// try await socket.send(.text("hello"))
/// for try await message in socket.messages {
///     switch message {
///     case .text(let text): print(text)
///     case .binary(let data): print(data.count, "bytes")
///     }
/// }
/// ```
public enum WebSocketMessage: Sendable, Hashable, CustomStringConvertible {
    /// A text message: UTF-8 on the wire, checked as it arrives.
    case text(String)
    /// A binary message.
    case binary(Data)

    /// `text "hello"` or `binary 42 bytes`; text longer than 64 characters is cut.
    public var description: String {
        switch self {
        case .text(let text):
            text.count > 64 ? "text \"\(text.prefix(64))…\" (\(text.utf8.count) bytes)" : "text \"\(text)\""
        case .binary(let data): "binary \(data.count) bytes"
        }
    }
}
