import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension NetworkClient {
    /// Builds the `URLRequest` for `request`, refusing anything invalid before any I/O.
    func buildURLRequest<Response>(_ request: NetworkRequest<Response>, name: String) throws(NetworkError)
        -> URLRequest
    {
        func refuse(_ reason: String, _ built: URLRequest? = nil) -> NetworkError {
            NetworkError(.invalidRequest, requestName: name, message: "invalid request: \(reason)", request: built)
        }
        guard request.method.isValidToken else {
            throw refuse(
                "the method \"\(RequestValidator.escaped(request.method.rawValue))\" is not a valid HTTP token")
        }
        let url: URL
        do {
            url = try URLBuilder.url(for: request.endpoint, query: request.query, base: base)
        } catch {
            throw refuse(error.reason)
        }
        var urlRequest = URLRequest(url: url)
        // Every mutation of a URLRequest copies its storage on Linux: skip the one that changes nothing.
        if request.method != .get { urlRequest.httpMethod = request.method.rawValue }
        // libcurl truncates sub-second timeouts; round up and add a second so the client's own timer fires first.
        let timeout = request.timeout ?? configuration.timeout
        urlRequest.timeoutInterval = (timeout.clampedForTimers.seconds.rounded(.up) + 1)
        var seen: Set<String> = []
        for (field, value) in request.headers {
            do {
                try RequestValidator.validateHeader(name: field, value: value)
            } catch {
                throw refuse(error.reason)
            }
            guard seen.insert(field.lowercased()).inserted else {
                throw refuse("the header \(field) is given twice with different letter case")
            }
            urlRequest.setValue(value, forHTTPHeaderField: field)
        }
        if let body = request.body {
            if request.method == .get || request.method == .head {
                throw refuse("a \(request.method.rawValue) request cannot carry a body")
            }
            do {
                urlRequest.httpBody = try body.encoded(with: configuration.encoder)
            } catch {
                throw NetworkError(
                    .encoding, requestName: name, message: "the body could not be encoded: \(error)",
                    request: urlRequest, underlyingError: error)
            }
            if let contentType = body.defaultContentType, !seen.contains("content-type") {
                urlRequest.setValue(contentType, forHTTPHeaderField: "Content-Type")
            }
        }
        return urlRequest
    }

    /// The innermost handler of the chain: one attempt. Re-checks the request behaviors produced, sends it through
    /// the transport under the attempt's time limit (the attempt timeout, or the time left before the call's
    /// deadline if that is shorter), and turns an unacceptable status into a ``NetworkError``.
    func attemptHandler(name: String, timeout: Duration, deadline: CallDeadline?, acceptable: Set<Int>) -> NextHandler {
        let transport = configuration.transport
        let clock = configuration.clock
        // The default transport enforces a limit in its own table without a task or timer per call; it runs on
        // real time, so only when the client's clock is the system clock.
        let limitedTransport = clock is SystemClock ? transport as? any TimeLimitedTransport : nil
        return { request in
            do throws(URLBuilder.Refusal) {
                try RequestValidator.validate(request)
            } catch {
                throw NetworkError(
                    .invalidRequest, requestName: name,
                    message: "invalid request after behaviors ran: \(error.reason)", request: request)
            }
            let remaining = deadline?.remaining()
            let (limit, scope): (Duration, NetworkError.TimeoutScope) =
                if let remaining, remaining < timeout { (remaining, .call) } else {
                    (timeout.clampedForTimers, .attempt)
                }
            let timedOut = { @Sendable in
                NetworkError(
                    .timedOut(scope), requestName: name,
                    message: scope == .call
                        ? "the call did not finish within its deadline of \(deadline?.limit ?? limit)"
                        : "no complete response within the attempt time limit of \(limit)",
                    request: request)
            }
            guard limit > .zero else { throw timedOut() }
            let data: Data
            let response: HTTPURLResponse
            do {
                if let limitedTransport {
                    (data, response) = try await limitedTransport.send(request, timeLimit: limit)
                } else {
                    (data, response) = try await withTimeLimit(limit, clock: clock, onTimeout: timedOut) {
                        try await transport.send(request)
                    }
                }
            } catch is TimeLimitExceeded {
                throw timedOut()
            } catch {
                throw Self.transportFailure(error, name: name, request: request)
            }
            guard acceptable.contains(response.statusCode) else {
                throw NetworkError(
                    .unacceptableStatus(response.statusCode), requestName: name,
                    message: "the server answered \(response.statusCode) "
                        + HTTPURLResponse.localizedString(forStatusCode: response.statusCode),
                    request: request, response: response, body: data)
            }
            return (data, response)
        }
    }

    /// Maps what a transport threw: cancellation and ``NetworkError`` pass through; everything else becomes a
    /// ``NetworkError`` of kind ``NetworkError/Kind/transport(_:)``.
    static func transportFailure(_ error: any Error, name: String, request: URLRequest) -> any Error {
        if error is CancellationError || error is NetworkError { return error }
        let transportError: TransportError
        if let known = error as? TransportError {
            transportError = known
        } else if let urlError = error as? URLError {
            guard let mapped = TransportError(urlError) else { return CancellationError() }
            transportError = mapped
        } else {
            // The transport's own error (a missing fixture, a mock's scripted failure) speaks for itself.
            return NetworkError(
                .transport(.other), requestName: name, message: "\(error)", request: request, underlyingError: error)
        }
        return NetworkError(
            .transport(transportError.code), requestName: name, message: transportError.description, request: request,
            underlyingError: transportError)
    }
}
