import Foundation
import NetworkingHTTP

extension Attempt {
    /// Sends `request` through the transport, one hop at a time, following redirects as ``RedirectState`` decides:
    /// the transport never follows one itself, so the method, body and credential rules are this code's, whatever
    /// the transport. A followed redirect's body is dropped unread.
    ///
    /// - Returns: The final response, its body, and the request of the last hop.
    /// - Throws: What the transport threw; ``TransportError`` when a redirect is refused.
    @inline(__always)
    package func followingRedirects(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody, HTTPRequest) {
        var redirects = RedirectState(
            for: request, limit: maximumRedirects, follows: request.followsRedirects ?? followsRedirects)
        var hop = request
        while true {
            let (response, body) = try await transport.send(hop)
            let decision = redirects.decide(
                status: response.status.code, location: response.headerFields[.location], current: hop)
            switch decision {
            case .deliver:
                return (response.url == nil ? Self.answered(response, by: hop) : response, body, hop)
            case .refuse(let code, let message):
                body.cancel()
                throw Self.refusal(code, message)
            case .follow(let next):
                body.cancel()
                hop = try Self.checkedHop(next)
            }
        }
    }

    // The two below are out of line: inlined, their locals were in the frame of every call, redirected or not.

    /// The error of a refused redirect.
    @inline(never)
    private static func refusal(_ code: TransportError.Code, _ message: String) -> TransportError {
        TransportError(code, message)
    }

    /// The request of the next hop, checked, unless the call was cancelled meanwhile.
    @inline(never)
    private static func checkedHop(_ next: HTTPRequest) throws -> HTTPRequest {
        try Task.checkCancellation()
        if let problem = RequestValidator.problem(in: next) {
            throw TransportError(.redirectRefused, "the redirect target cannot be requested: \(problem)")
        }
        return next
    }

    /// `response` with the URL of the request it answers, when the transport did not say.
    private static func answered(_ response: HTTPResponse, by request: HTTPRequest) -> HTTPResponse {
        var response = response
        response.url = request.url
        return response
    }
}
