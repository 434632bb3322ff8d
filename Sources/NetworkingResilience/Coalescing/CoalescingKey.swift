import Foundation
import NetworkingHTTP
import NetworkingCore

/// What makes two requests the same question for ``CoalescingBehavior``: method, target and header fields.
///
/// Only `GET` and `HEAD` without a body have a key; every other request is sent on its own.
/// ```swift
/// let a = HTTPRequest(url: URL(string: "https://API.example.com/items?page=2")!, headerFields: ["Accept": "a/b"])
/// let b = HTTPRequest(url: URL(string: "https://api.example.com/items?page=2")!, headerFields: ["accept": "a/b"])
/// CoalescingKey(a) == CoalescingKey(b)   // true: scheme, host and header names ignore case
/// ```
///
/// The rules, each because it can change the answer:
/// - **Method**, exactly: a `HEAD` never shares a `GET`'s call.
/// - **Target**: the scheme and the authority without regard to case (RFC 9110 §4.2.3), the path and query
///   exactly, byte for byte.
/// - **Every header field** (`Authorization` and `Cookie` included): names without regard to case, values
///   exactly. Fields of different names may come in any order; repeated fields of one name keep their order, as
///   it is part of their meaning (RFC 9110 §5.3). Names in `ignoring` are left out.
/// - **Redirect choice**: a request that follows redirects and one that does not get different answers.
public struct CoalescingKey: Sendable, Hashable, CustomStringConvertible {
    /// The method: `GET` or `HEAD`.
    public let method: HTTPMethod
    /// `scheme://authority` lower-cased, followed by the path and query as they are.
    public let target: String
    /// The header fields that count, as `(lower-cased name, value)` pairs sorted by name, repeated names in
    /// their order.
    public let headerFields: [Field]
    /// The request's `HTTPRequest/followsRedirects`.
    public let followsRedirects: Bool?

    /// One header field of a key.
    public struct Field: Sendable, Hashable {
        /// The name, lower-cased.
        public let name: String
        /// The value, exactly as sent.
        public let value: String
    }

    /// The key of `request`, or `nil` when it must not share a call: a method other than `GET` or `HEAD`, or a
    /// body (even an empty one a caller set on purpose is sent as it is, on its own).
    ///
    /// - Parameters:
    ///   - request: The request as it reaches the behavior.
    ///   - ignoring: Lower-cased names of header fields left out of the key.
    public init?(_ request: HTTPRequest, ignoring: Set<String> = []) {
        guard request.method == .get || request.method == .head else { return nil }
        guard request.body.isEmpty else { return nil }
        method = request.method
        target = request.scheme + "://" + HTTPToken.lowercasedASCII(request.authority) + request.path
        var fields: [Field] = []
        fields.reserveCapacity(request.headerFields.count)
        for field in request.headerFields {
            let name = field.name.canonicalName
            if !ignoring.isEmpty && ignoring.contains(name) { continue }
            fields.append(Field(name: name, value: field.value))
        }
        // A stable sort by name: fields of one name keep the order they were sent in.
        headerFields = fields.enumerated().sorted { lhs, rhs in
            lhs.element.name == rhs.element.name ? lhs.offset < rhs.offset : lhs.element.name < rhs.element.name
        }.map(\.element)
        followsRedirects = request.followsRedirects
    }

    /// `GET https://api.example.com/items (2 header fields)`, without the query or header values, which may hold
    /// secrets.
    public var description: String {
        let bare = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let count = headerFields.count
        return "\(method.rawValue) \(bare) (\(count) header field\(count == 1 ? "" : "s"))"
    }
}
