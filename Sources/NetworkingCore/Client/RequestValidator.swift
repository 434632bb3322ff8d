import NetworkingHTTP

/// The checks every request passes just before it reaches a transport, after every behavior ran: what the writes
/// recorded, the headers only the transport may set, and bodies where none may be.
package enum RequestValidator {
    /// Header names the client refuses from callers: they control message framing, routing and the connection,
    /// so a wrong value could smuggle a second request. The transport sets them itself.
    package static let reservedHeaderNames: Set<String> = ["host", "content-length", "transfer-encoding", "connection"]

    /// The lengths of the reserved names, one bit each: a name of another length, almost every name on every
    /// attempt, is let through without hashing it.
    private static let reservedLengths: UInt64 = reservedHeaderNames.reduce(0) { $0 | 1 << UInt64($1.utf8.count) }

    /// Whether `name` (lower-cased) is reserved.
    private static func isReserved(_ name: String) -> Bool {
        let length = name.utf8.count
        return length < 64 && reservedLengths & (1 << UInt64(length)) != 0 && reservedHeaderNames.contains(name)
    }

    /// Why `request` cannot be sent, or `nil`.
    package static func problem(in request: HTTPRequest) -> String? {
        if let reason = request.invalidReason { return reason }
        for field in request.headerFields where isReserved(field.name.canonicalName) {
            return "the header \(field.name.rawName) is set by the transport and cannot be set by callers"
        }
        if request.method == .get || request.method == .head, !request.body.isEmpty {
            return "a \(request.method.rawValue) request cannot carry a body"
        }
        if let problem = request.body.problem { return problem }
        return nil
    }
}
