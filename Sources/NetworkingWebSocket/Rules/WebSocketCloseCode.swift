import Foundation

/// The status code of a WebSocket closing handshake (RFC 6455 §7.4), sent and received in close frames.
///
/// ```swift
/// let socket = try await client.webSocket(WebSocketRequest(path: "/chat"))
/// try await socket.close(.normalClosure, reason: "bye")
/// try await socket.close(WebSocketCloseCode(rawValue: 4001), reason: "logged out")  // a code of the application
/// ```
/// Codes 1000 to 2999 belong to the protocol (those defined are constants here); 3000 to 3999 are registered with
/// IANA by libraries and frameworks; 4000 to 4999 are for applications (§7.4.2).
public struct WebSocketCloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The code as it travels: two bytes, network order.
    public let rawValue: UInt16

    /// Creates a code.
    ///
    /// - Parameter rawValue: The code.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// 1000: the purpose of the connection has been fulfilled.
    public static let normalClosure = WebSocketCloseCode(rawValue: 1000)
    /// 1001: an endpoint is going away: a server shutting down, a client leaving (a cancelled reader).
    public static let goingAway = WebSocketCloseCode(rawValue: 1001)
    /// 1002: an endpoint broke the protocol.
    public static let protocolError = WebSocketCloseCode(rawValue: 1002)
    /// 1003: an endpoint received a type of data it cannot accept.
    public static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
    /// 1005: no code was present in the close frame. Never sent; reported when a close frame had none.
    public static let noStatusReceived = WebSocketCloseCode(rawValue: 1005)
    /// 1006: the connection closed without a closing handshake. Never sent; reported for a lost connection.
    public static let abnormalClosure = WebSocketCloseCode(rawValue: 1006)
    /// 1007: a message's data did not match its type, such as a text message that is not UTF-8.
    public static let invalidFramePayloadData = WebSocketCloseCode(rawValue: 1007)
    /// 1008: a message violated the endpoint's policy.
    public static let policyViolation = WebSocketCloseCode(rawValue: 1008)
    /// 1009: a message was too big to process.
    public static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
    /// 1010: the client expected the server to negotiate an extension it did not.
    public static let mandatoryExtensionMissing = WebSocketCloseCode(rawValue: 1010)
    /// 1011: the server met a condition that kept it from fulfilling the request.
    public static let internalServerError = WebSocketCloseCode(rawValue: 1011)
    /// 1015: the TLS handshake failed. Never sent.
    public static let tlsHandshakeFailure = WebSocketCloseCode(rawValue: 1015)

    /// Whether the code may travel in a close frame (RFC 6455 §7.4.1, §7.4.2; IANA's registry adds 1012, 1013 and
    /// 1014): 1000–1003, 1007–1014 and 3000–4999. 1005, 1006 and 1015 only report what happened; the rest of
    /// 0–2999 is reserved, and 5000 and above is not defined. A close frame carrying another code breaks the protocol.
    public var canBeSent: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }

    /// `1000 normalClosure`, or the number alone for a code without a name here.
    public var description: String {
        let names: [UInt16: String] = [
            1000: "normalClosure", 1001: "goingAway", 1002: "protocolError", 1003: "unsupportedData",
            1005: "noStatusReceived", 1006: "abnormalClosure", 1007: "invalidFramePayloadData",
            1008: "policyViolation", 1009: "messageTooBig", 1010: "mandatoryExtensionMissing",
            1011: "internalServerError", 1015: "tlsHandshakeFailure",
        ]
        return names[rawValue].map { "\(rawValue) \($0)" } ?? "\(rawValue)"
    }
}
