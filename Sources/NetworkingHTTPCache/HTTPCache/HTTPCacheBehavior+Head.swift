import Foundation
import NetworkingHTTP
import NetworkingCore

extension HTTPCacheBehavior {
    /// Sends a `HEAD` on; its `200` updates the stored `GET` response the same request would have chosen (RFC 9111
    /// §4.3.5): when every validator the `200` carries (`ETag`, `Last-Modified`) matches the stored one and its
    /// `Content-Length`, if any, is the stored length, the stored header fields are updated as a `304`'s would be
    /// (§3.2), and its age starts again (a new `max-age` makes it fresh); otherwise the stored response names
    /// another representation and is removed. A `HEAD` response is never stored itself, nor answered from the store.
    func sendHead(_ request: HTTPRequest, call: Call, next: @escaping NextHandler) async throws -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        let requestDate = call.clock.date()
        let (response, body) = try await next(request)
        guard response.status.code == 200, let stored = await store.entry(forKey: call.key),
            let entry = Self.variant(of: stored, matching: request.headerFields)
        else { return (response, body) }
        guard CacheValidation.headResponse(response.headerFields, matches: entry) else {
            await replaceVariant(for: request, with: nil, call: call)
            emit(.invalidated, call, "a HEAD's 200 names another representation than the stored response")
            return (response, body)
        }
        var updated = entry
        updated.headerFields = CacheValidation.merge(stored: entry.headerFields, notModified: response.headerFields)
        updated.requestDate = requestDate
        updated.responseDate = call.clock.date()
        var asGet = request
        asGet.method = .get
        if let reason = CacheStorability.reasonNotToStore(
            request: asGet, status: updated.status, response: updated.headerFields, shared: call.shared)
        {
            await replaceVariant(for: request, with: nil, call: call)
            emit(.notStored, call, "after a HEAD's 200: \(reason)")
        } else {
            await replaceVariant(for: request, with: updated, call: call)
            emit(.stored, call, "the stored response's fields were updated by a HEAD's 200")
        }
        return (response, body)
    }
}
