import Foundation
import NetworkingHTTP
import NetworkingCore

/// One stored response of an ``HTTPCacheBehavior``, with the other variants of its URL: what a ``HTTPCacheStore``
/// keeps per URL.
///
/// A plain value: stores copy it, write it to disk, and hand it back; they never interpret it.
public struct HTTPCacheEntry: Sendable, Hashable {
    /// The status of the stored response, such as 200.
    public var status: Int
    /// The stored response's header fields, as last updated by a `304 Not Modified`.
    public var headerFields: HTTPFields
    /// The stored response's body.
    public var body: Data
    /// The URL that answered, when the transport said.
    public var url: URL?
    /// The request's values of the headers the response's `Vary` names, lower-cased name to value (a name the
    /// request did not send is absent), so a later request matches only with the same values (RFC 9111 §4.1).
    public var varyingRequestFields: [String: String]
    /// When the request that brought this response was sent, by the behavior's clock (RFC 9111 §4.2.3
    /// `request_time`).
    public var requestDate: Date
    /// When the response arrived, by the behavior's clock (`response_time`).
    public var responseDate: Date
    /// The other stored responses of the same URL that differ by `Vary` (RFC 9111 §4.1), most recent first; each
    /// has no variants of its own. Empty unless the responses name `Vary`.
    public var otherVariants: [HTTPCacheEntry] = []
    /// The trailer fields that came after the stored body (`HTTPBody/trailerFields`), served with it; `nil` when
    /// none came. A `304` updates the header fields only: trailers belong to the body they followed.
    public var trailerFields: HTTPFields?

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - status: The response's status code.
    ///   - headerFields: The response's header fields.
    ///   - body: The response's body.
    ///   - url: The URL that answered.
    ///   - varyingRequestFields: The request's values of the headers named by `Vary`.
    ///   - requestDate: When the request was sent.
    ///   - responseDate: When the response arrived.
    public init(
        status: Int, headerFields: HTTPFields, body: Data, url: URL? = nil,
        varyingRequestFields: [String: String] = [:],
        requestDate: Date, responseDate: Date
    ) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
        self.url = url
        self.varyingRequestFields = varyingRequestFields
        self.requestDate = requestDate
        self.responseDate = responseDate
    }

    /// The size the entry is counted as in a byte limit: its body, header names and values, and URL.
    public var cost: Int {
        body.count + headerFields.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4 }
            + (url?.absoluteString.utf8.count ?? 0)
            + varyingRequestFields.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count } + 64
            + otherVariants.reduce(0) { $0 + $1.cost }
            + (trailerFields ?? HTTPFields()).reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4 }
    }
}
