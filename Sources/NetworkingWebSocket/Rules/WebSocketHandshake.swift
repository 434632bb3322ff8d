import Foundation
import NetworkingHTTP

/// The opening handshake of RFC 6455 (§4.1, §4.2.2) as values: the fields a client adds to its `GET`, and the
/// checks of the server's `101 Switching Protocols` that decide whether the connection is a WebSocket.
package enum WebSocketHandshake {
    /// The GUID §1.3 appends to the key before hashing it into `Sec-WebSocket-Accept`.
    package static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// A `Sec-WebSocket-Key`: 16 random bytes, base64 (§4.1, item 7), fresh for every connection.
    package static func makeKey(_ random: WebSocketRandom) -> String {
        Data(random.bytes(16)).base64EncodedString()
    }

    /// The `Sec-WebSocket-Accept` a server must answer `key` with: base64 of the SHA-1 of the key and the GUID
    /// (§4.2.2, item 5.4).
    package static func accept(forKey key: String) -> String {
        SHA1.digest(Data((key + guid).utf8)).base64EncodedString()
    }

    /// The fields of an opening handshake (§4.1, items 5–10) but two: `Upgrade: websocket`,
    /// `Sec-WebSocket-Version: 13`, and `Sec-WebSocket-Protocol` when subprotocols are offered. The key each attempt
    /// makes afresh; `Connection: Upgrade` the transport writes, as it owns the connection (the client refuses
    /// `Connection` from anyone else). No `Sec-WebSocket-Extensions`: none is offered.
    package static func requestFields(subprotocols: [String]) -> [(HTTPField.Name, String)] {
        var fields: [(HTTPField.Name, String)] = [(.upgrade, "websocket"), (.secWebSocketVersion, "13")]
        if !subprotocols.isEmpty { fields.append((.secWebSocketProtocol, subprotocols.joined(separator: ", "))) }
        return fields
    }

    /// Why a subprotocol cannot be offered, or `nil`: it must be a non-empty token (§4.1, item 10), offered once.
    package static func problem(inSubprotocols subprotocols: [String]) -> String? {
        var seen = Set<String>()
        for name in subprotocols {
            guard HTTPToken.isToken(name) else {
                return "the subprotocol \"\(name)\" is not a token (RFC 6455 §4.1)"
            }
            guard seen.insert(name).inserted else {
                return "the subprotocol \"\(name)\" is offered twice (RFC 6455 §4.1)"
            }
        }
        return nil
    }

    /// Checks a `101` answer to a handshake sent with `key`, offering `subprotocols` (§4.1, the client's checks
    /// 2–6), and returns the subprotocol the server chose, if any.
    ///
    /// - Returns: The chosen subprotocol (`nil` for none), or why the answer is not a WebSocket's.
    package static func check(
        _ response: HTTPResponse, key: String, subprotocols: [String]
    ) -> Result<String?, WebSocketHandshakeProblem> {
        let fields = response.headerFields
        // Item 2: Upgrade is `websocket`, compared as ASCII without case.
        let upgrade = fields[values: .upgrade].flatMap(tokens)
        guard upgrade == ["websocket"] else {
            return .failure(.init("its Upgrade field is \(describe(fields[.upgrade])), not websocket (RFC 6455 §4.1)"))
        }
        // Item 3: Connection holds the token `upgrade`.
        guard fields[values: .connection].flatMap(tokens).contains("upgrade") else {
            return .failure(
                .init("its Connection field is \(describe(fields[.connection])), without Upgrade (RFC 6455 §4.1)"))
        }
        // Item 4: the accept value is the key's, octet for octet.
        let expected = accept(forKey: key)
        let accept = fields[values: .secWebSocketAccept]
        guard accept.count == 1, Array(accept[0].trimmingSpacesAndTabs.utf8) == Array(expected.utf8) else {
            return .failure(
                .init(
                    "its Sec-WebSocket-Accept is \(describe(fields[.secWebSocketAccept])), not \(expected) "
                        + "(RFC 6455 §4.1, §4.2.2)"))
        }
        // Item 5: no extension was offered, so none may be in use.
        let extensions = fields[values: .secWebSocketExtensions].flatMap { $0.split(separator: ",") }
            .map { String($0.trimmingSpacesAndTabs) }.filter { !$0.isEmpty }
        guard extensions.isEmpty else {
            return .failure(
                .init("it uses the extension \(extensions[0]), which was not offered (RFC 6455 §4.1, §9.1)"))
        }
        // Item 6: a subprotocol, if any, is one that was offered (compared exactly: §4.1 says "present in").
        let chosen = fields[values: .secWebSocketProtocol].map { String($0.trimmingSpacesAndTabs) }
        guard chosen.count <= 1 else {
            return .failure(.init("it chose \(chosen.count) subprotocols; at most one may be (RFC 6455 §4.1)"))
        }
        guard let protocolName = chosen.first else { return .success(nil) }
        guard subprotocols.contains(protocolName) else {
            let offered = subprotocols.isEmpty ? "none was offered" : "it was not offered"
            return .failure(.init("it chose the subprotocol \(protocolName), but \(offered) (RFC 6455 §4.1)"))
        }
        return .success(protocolName)
    }

    /// The comma-separated tokens of a field value, lower-cased as ASCII.
    private static func tokens(_ value: String) -> [String] {
        value.split(separator: ",").map { HTTPToken.lowercasedASCII(String($0.trimmingSpacesAndTabs)) }.filter {
            !$0.isEmpty
        }
    }

    private static func describe(_ value: String?) -> String {
        value.map { "\"\(DisplayText.escapingControlCharacters($0))\"" } ?? "missing"
    }
}

/// Why a server's `101` is not a WebSocket handshake, in a sentence naming the RFC 6455 rule.
package struct WebSocketHandshakeProblem: Error, Sendable, Hashable {
    package let reason: String
    package init(_ reason: String) { self.reason = reason }
}

extension HTTPField.Name {
    /// `Upgrade` (RFC 9110 §7.8).
    package static let upgrade = HTTPField.Name("Upgrade")
    /// `Sec-WebSocket-Key` (RFC 6455 §11.3.1).
    package static let secWebSocketKey = HTTPField.Name("Sec-WebSocket-Key")
    /// `Sec-WebSocket-Accept` (RFC 6455 §11.3.3).
    package static let secWebSocketAccept = HTTPField.Name("Sec-WebSocket-Accept")
    /// `Sec-WebSocket-Version` (RFC 6455 §11.3.5).
    package static let secWebSocketVersion = HTTPField.Name("Sec-WebSocket-Version")
    /// `Sec-WebSocket-Protocol` (RFC 6455 §11.3.4).
    package static let secWebSocketProtocol = HTTPField.Name("Sec-WebSocket-Protocol")
    /// `Sec-WebSocket-Extensions` (RFC 6455 §11.3.2).
    package static let secWebSocketExtensions = HTTPField.Name("Sec-WebSocket-Extensions")
}
