import Foundation
import NetworkingHTTP
import NetworkingCore

/// Adds an `Idempotency-Key` header to non-idempotent requests, so a server can recognise a repeated attempt and
/// the retry policy may retry them.
///
/// The key is the call's `RequestContext/callID`: the same on every attempt of one call, new for every call.
/// A key the request sets itself is kept. `RetrySettings` treats a request that was sent with this header as safe
/// to retry whatever its method, so a `POST` can opt in to retries:
/// ```swift
/// try await client.send(payment, behavior: .idempotencyKey())
/// ```
/// It works at any position in the chain, including per request inside a client-wide `.retry()`: the retry
/// decision looks at the request as it was sent.
public struct IdempotencyKeyBehavior: RequestBehavior {
    /// `BehaviorPlacement/callSetup`: every attempt, and every hedge, carries the same key.
    public var placement: BehaviorPlacement { .callSetup }

    /// The header carrying the key. Default: `HTTPField/Name/idempotencyKey` (`Idempotency-Key`), the IETF
    /// httpapi draft's name, used by Stripe and others, and the one ``RetrySettings`` looks for.
    public var headerName: HTTPField.Name
    /// The methods that get a key. Default: `POST` and `PATCH`, the methods that are not idempotent by definition.
    public var methods: Set<HTTPMethod>

    /// Creates the behavior.
    ///
    /// - Parameters:
    ///   - headerName: The header carrying the key.
    ///   - methods: The methods that get a key.
    public init(headerName: HTTPField.Name = .idempotencyKey, methods: Set<HTTPMethod> = [.post, .patch]) {
        self.headerName = headerName
        self.methods = methods
    }

    /// Sets the key from the call's id unless the method is exempt or the request already has a key.
    public func modify(request: HTTPRequest, context: RequestContext) async throws -> HTTPRequest {
        guard methods.contains(request.method), !request.headerFields.contains(headerName) else { return request }
        var request = request
        request.headerFields[headerName] = context.callID.uuidString.lowercased()
        return request
    }
}

extension RequestBehavior where Self == IdempotencyKeyBehavior {
    /// Adds an `Idempotency-Key` (constant across one call's attempts) to `POST` and `PATCH` requests.
    ///
    /// - Parameter methods: The methods that get a key.
    public static func idempotencyKey(methods: Set<HTTPMethod> = [.post, .patch]) -> IdempotencyKeyBehavior {
        IdempotencyKeyBehavior(methods: methods)
    }
}
