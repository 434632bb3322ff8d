/// The checks every request passes just before it reaches a transport, after every behavior ran: what the writes
/// recorded, the headers only the transport may set, and bodies where none may be.
enum RequestValidator {
    /// Header names the client refuses from callers: they control message framing, routing and the connection,
    /// so a wrong value could smuggle a second request. The transport sets them itself.
    static let reservedHeaderNames: Set<String> = ["host", "content-length", "transfer-encoding", "connection"]

    /// Why `request` cannot be sent, or `nil`.
    static func problem(in request: HTTPRequest) -> String? {
        if let reason = request.invalidReason { return reason }
        for field in request.headerFields where reservedHeaderNames.contains(field.name.canonicalName) {
            return "the header \(field.name.rawName) is set by the transport and cannot be set by callers"
        }
        if request.method == .get || request.method == .head, !request.body.isEmpty {
            return "a \(request.method.rawValue) request cannot carry a body"
        }
        return nil
    }
}
