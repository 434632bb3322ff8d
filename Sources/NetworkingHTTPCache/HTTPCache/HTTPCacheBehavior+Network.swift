import Foundation
import NetworkingHTTP
import NetworkingCore

extension HTTPCacheBehavior {
    /// Sends `request` and stores the response when the rules allow, removing the stored one when they do not;
    /// with a `stale` response that allows it, a failure serves that instead (`stale-if-error`).
    func fetch(_ request: HTTPRequest, call: Call, next: @escaping NextHandler, stale: Stale? = nil) async throws -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        let requestDate = call.clock.date()
        let (response, body): (HTTPResponse, HTTPResponse.Body)
        do {
            (response, body) = try await next(request)
        } catch {
            return try servingStale(stale, after: error, request: request, call: call)
        }
        if let served = servingStale(stale, after: response, request: request, call: call) { return served }
        await keep(response, body: body, for: request, requestDate: requestDate, call: call)
        return (response, body)
    }

    /// Sends the conditional request; a `304` for the stored response returns the stored body with updated
    /// headers, any other response is handled as a fresh one; with a `stale` response that allows it, a failure
    /// serves that instead (`stale-if-error`).
    func revalidate(
        _ request: HTTPRequest, conditional: HTTPRequest, entry: HTTPCacheEntry, call: Call,
        next: @escaping NextHandler,
        stale: Stale? = nil
    ) async throws -> (HTTPResponse, HTTPResponse.Body) {
        let requestDate = call.clock.date()
        let response: HTTPResponse
        let body: HTTPResponse.Body
        do {
            (response, body) = try await next(conditional)
        } catch let error as NetworkError where error.response?.status.code == 304 {
            guard let head = error.response else { throw error }
            return try await notModified(
                head, request: request, entry: entry, requestDate: requestDate, call: call,
                next: next)
        } catch {
            return try servingStale(stale, after: error, request: request, call: call)
        }
        if response.status.code == 304 {
            return try await notModified(
                response, request: request, entry: entry, requestDate: requestDate,
                call: call, next: next)
        }
        if let served = servingStale(stale, after: response, request: request, call: call) { return served }
        await keep(response, body: body, for: request, requestDate: requestDate, call: call)
        return (response, body)
    }

    /// Applies a `304` to the stored response (RFC 9111 §4.3.4); one that does not match it (another `ETag`)
    /// drops the stored response and sends the request again without conditions.
    private func notModified(
        _ head: HTTPResponse, request: HTTPRequest, entry: HTTPCacheEntry, requestDate: Date, call: Call,
        next: @escaping NextHandler
    ) async throws -> (HTTPResponse, HTTPResponse.Body) {
        guard CacheValidation.notModified(head.headerFields, appliesTo: entry) else {
            await replaceVariant(for: request, with: nil, call: call)
            emit(.miss, call, "the 304's validator does not match the stored response")
            return try await fetch(request, call: call, next: next)
        }
        var updated = entry
        updated.headerFields = CacheValidation.merge(stored: entry.headerFields, notModified: head.headerFields)
        updated.requestDate = requestDate
        updated.responseDate = call.clock.date()
        reportMalformedDates(updated.headerFields, call)
        if let reason = CacheStorability.reasonNotToStore(
            request: request, status: updated.status, response: updated.headerFields, shared: call.shared)
        {
            await replaceVariant(for: request, with: nil, call: call)
            emit(.notStored, call, reason)
        } else {
            await replaceVariant(for: request, with: updated, call: call)
        }
        emit(.revalidated, call)
        return served(updated, request: request, status: "fwd=stale; fwd-status=304")
    }

    /// Stores `response` when the rules allow, as the variant of its request; otherwise removes that variant.
    func keep(
        _ response: HTTPResponse, body: HTTPResponse.Body, for request: HTTPRequest, requestDate: Date, call: Call
    ) async {
        let fields = response.headerFields
        report(CacheControl(fields: fields).problems, call)
        // A streamed body goes to its one reader (a stream, a download): there is nothing in memory to store, and
        // an entry without it would answer later calls with an empty body.
        guard let data = body.data else {
            await replaceVariant(for: request, with: nil, call: call)
            emit(.notStored, call, "the body was streamed to the caller")
            return
        }
        if let reason = CacheStorability.reasonNotToStore(
            request: request, status: response.status.code, response: fields, shared: call.shared)
        {
            await replaceVariant(for: request, with: nil, call: call)
            emit(.notStored, call, reason)
            return
        }
        reportMalformedDates(fields, call)
        let kept = CacheStorability.withoutHopByHopFields(fields)
        var entry = HTTPCacheEntry(
            status: response.status.code, headerFields: kept, body: data, url: response.url,
            varyingRequestFields: CacheStorability.varyingFields(
                of: request.headerFields, names: CacheStorability.varyNames(of: kept) ?? []),
            requestDate: requestDate, responseDate: call.clock.date())
        entry.trailerFields = body.trailerFields
        await replaceVariant(for: request, with: entry, call: call)
        emit(.stored, call)
    }

    /// Sends a request of an unsafe method; a 2xx or 3xx answer (returned or thrown) invalidates its URL and its
    /// same-origin `Location` and `Content-Location` (RFC 9111 §4.4).
    func sendUnsafe(_ request: HTTPRequest, call: Call, next: @escaping NextHandler) async throws -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        do {
            let requestDate = call.clock.date()
            let (response, body) = try await next(request)
            await invalidate(after: response, request: request, call: call)
            // RFC 9111 §4: a POST response with explicit freshness and a Content-Location of its own URL answers
            // later GETs of that URL.
            if request.method == .post, body.data != nil,
                CacheStorability.reasonNotToStore(
                    request: request, status: response.status.code, response: response.headerFields,
                    shared: call.shared) == nil
            {
                await keep(response, body: body, for: request, requestDate: requestDate, call: call)
            }
            return (response, body)
        } catch let error as NetworkError {
            if let response = error.response { await invalidate(after: response, request: request, call: call) }
            throw error
        }
    }

    private func invalidate(after response: HTTPResponse, request: HTTPRequest, call: Call) async {
        guard (200..<400).contains(response.status.code) else { return }
        // The request's own key (with its credentials' digest in a private cache) and the bare URL's.
        var keys = call.key == call.url ? [call.key] : [call.key, call.url]
        for name in ["Location", "Content-Location"] {
            guard let value = response.headerFields[HTTPField.Name(name)], let base = request.url,
                let target = URL(string: value, relativeTo: base)?.absoluteURL,
                let parts = RequestTarget(target),
                parts.scheme == request.scheme,
                HTTPToken.lowercasedASCII(parts.authority) == HTTPToken.lowercasedASCII(request.authority)
            else { continue }
            keys.append("\(parts.scheme)://\(HTTPToken.lowercasedASCII(parts.authority))\(parts.path)")
        }
        for key in keys {
            await store.removeEntry(forKey: key)
            if key == call.key, key != call.url { continue }
            onEvent(HTTPCacheEvent(.invalidated, key: key, requestName: call.name))
        }
    }

    /// Reports `Expires`, `Date` and `Age` values that cannot be read; they are then ignored as RFC 9111 says.
    private func reportMalformedDates(_ fields: HTTPFields, _ call: Call) {
        let now = call.clock.date()
        for name in ["Expires", "Date", "Last-Modified"] {
            guard let value = fields[values: HTTPField.Name(name)].first else { continue }
            if HTTPDate.parse(String(FieldSyntax.trimmed(value)), now: now) == nil {
                emit(
                    .ignoredHeader, call,
                    "\(name): \"\(DisplayText.escapingControlCharacters(value))\" is not an HTTP-date")
            }
        }
        if let age = fields[values: "Age"].first.map(FieldSyntax.trimmed),
            age.isEmpty || !age.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        {
            emit(.ignoredHeader, call, "Age: \"\(DisplayText.escapingControlCharacters(String(age)))\" is not a number")
        }
    }
}
