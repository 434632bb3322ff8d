import NetworkingCore
import NetworkingHTTP

/// Adds fixed headers to every request: `.headers(["Accept": "application/json", "API-Version": "2"])`.
///
/// The headers are `RequestBehavior/additionalHeaders`, applied by the same rule, so the chain's precedence applies: a header the
/// `NetworkRequest` sets itself is never replaced, and an inner behavior's value replaces an outer one's. Values
/// are checked by the client before sending (CR, LF and other control characters fail with kind
/// `invalidRequest`). Names compare case-insensitively: when the dictionary gives one name in several cases, the
/// entry whose name sorts last (`x-id` after `X-ID`) is kept, so the result never depends on dictionary order.
///
/// Defaults: none. State kept: none.
public struct HeadersBehavior: RequestBehavior {
    /// `BehaviorPlacement/modification`: with the other changes to the request.
    public var placement: BehaviorPlacement { .modification }

    /// The headers added, one entry per case-insensitive name.
    public let additionalHeaders: [String: String]
    /// The same headers as field names made once, in the order the hook applies them (sorted by name).
    private let fields: [(name: HTTPField.Name, value: String)]

    /// Creates the behavior.
    ///
    /// - Parameter headers: The headers to add to every request.
    public init(_ headers: [String: String]) {
        var byName: [String: (name: String, value: String)] = [:]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            byName[HTTPToken.lowercasedASCII(name)] = (name, value)
        }
        additionalHeaders = Dictionary(uniqueKeysWithValues: byName.values.map { ($0.name, $0.value) })
        fields = additionalHeaders.sorted { $0.key < $1.key }.map { (HTTPField.Name($0.key), $0.value) }
    }

    /// Adds ``additionalHeaders`` as the default hook does (never over a header the request set itself), with the
    /// names made once rather than on every call, then calls `next`.
    ///
    /// - Parameters:
    ///   - request: The request so far.
    ///   - context: The call's context.
    ///   - next: The rest of the chain.
    /// - Returns: What `next` returned.
    /// - Throws: What `next` threw.
    public func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        var request = request
        add(to: &request, context: context)
        return try await next(request)
    }

    /// Adds the headers to `request`, but those it set itself.
    private func add(to request: inout HTTPRequest, context: RequestContext) {
        for field in fields where !context.explicitHeaderNames.contains(field.name.canonicalName) {
            request.headerFields[field.name] = field.value
        }
    }
}

extension HeadersBehavior: RequestRewritingBehavior {
    /// Adds the headers in place: what the chain runs when this behavior shares a level with other rewriters.
    package func rewrite(_ request: inout HTTPRequest, context: RequestContext) async throws {
        add(to: &request, context: context)
    }
}

extension RequestBehavior where Self == HeadersBehavior {
    /// Adds fixed headers to every request, never replacing one the request set itself.
    ///
    /// - Parameter headers: The headers to add.
    /// - Returns: The behavior.
    public static func headers(_ headers: [String: String]) -> HeadersBehavior {
        HeadersBehavior(headers)
    }
}
