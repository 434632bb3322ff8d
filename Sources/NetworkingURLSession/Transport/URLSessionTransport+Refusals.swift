import Foundation
import NetworkingHTTP
import NetworkingCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the transport refuses although Foundation would take it: a head whose body cannot be framed, and on Linux
/// what would stop the process inside FoundationNetworking (trailer fields, Tests/README.md L17).
///
/// swift-corelibs-foundation (through Swift 6.3) reads each trailer line libcurl passes to its header callback as the
/// start of a new head: the response it had is dropped (`_TransferState.byAppendingHTTP`), and when the transfer ends
/// `_NativeProtocol.transferCompleted` finds none and calls `fatalError("Transfer completed, but there's no
/// response.")`. That happens on Foundation's own queue, in the same pass that reads the last bytes: nothing the
/// delegate does can come in between (a cancel from inside its callbacks waits on that very queue). So the transport
/// keeps trailers away where it can: it sends no request that asks for them, and refuses a head that announces them,
/// cancelling the task before they arrive. Trailers a server sends with the body and without announcing them still
/// stop the process: on Linux, use the libcurl transport, the default there.
extension URLSessionTransportDelegate {
    /// Why a response with `head`, to a request with `method`, is refused, or `nil` when the transport reads it.
    static func refusal(of head: HTTPURLResponse, method: HTTPMethod?) -> String? {
        // Foundation reports repeated fields joined with ", ": one value, read as the list it may be (RFC 9110 §5.3).
        if let value = head.value(forHTTPHeaderField: "Content-Length"),
            case .invalid(let reason) = ContentLength.framing(of: [value])
        {
            return reason
        }
        // Linux only: the trap is swift-corelibs-foundation's. Apple's URLSession
        // (developer.apple.com/documentation/foundation/urlsession) is another implementation: nothing refused there.
        #if canImport(FoundationNetworking)
            // RFC 9110 §6.6.2: `Trailer` names the fields that will follow the body; a response without a body
            // (to `HEAD`, a 204 or a 304, RFC 9110 §6.4.1) may repeat the field, and nothing follows it.
            let bodiless = method == .head || [204, 304].contains(head.statusCode)
            if !bodiless, let announced = head.value(forHTTPHeaderField: "Trailer") {
                return "the response announces trailer fields (Trailer: \(announced)), which FoundationNetworking on"
                    + " Linux cannot read: they would stop the process. Use the libcurl transport for this server"
            }
        #endif
        return nil
    }

    /// Why `request` is refused before anything is sent, or `nil`.
    static func refusal(of request: HTTPRequest) -> String? {
        // Linux only, as above.
        #if canImport(FoundationNetworking)
            // RFC 9110 §10.1.4: `TE: trailers` tells the server the client accepts trailer fields.
            if request.headerFields[values: HTTPField.Name("TE")].contains(where: Self.namesTrailers) {
                return "the request accepts trailer fields (TE: trailers), which FoundationNetworking on Linux cannot"
                    + " read: a response carrying them would stop the process; nothing was sent. Use the libcurl"
                    + " transport for this request"
            }
        #endif
        return nil
    }

    /// Whether a `TE` value lists `trailers` (a case-insensitive token, compared as octets).
    static func namesTrailers(_ value: String) -> Bool {
        value.utf8.split(separator: 0x2C).contains { member in
            // A member is `token [ weight ]`: the token ends at the first space, tab or ';'.
            let token = member.drop { $0 == 0x20 || $0 == 0x09 }.prefix { $0 != 0x20 && $0 != 0x09 && $0 != 0x3B }
            return token.count == 8 && zip(token, "trailers".utf8).allSatisfy { ($0 | 0x20) == $1 }
        }
    }
}
