import Foundation

/// One attempt of a call, the innermost handler of its chain: checks the request as behaviors left it, sends it
/// through the transport under the attempt's time limit (the attempt timeout, or the time left before the call's
/// deadline if that is shorter), and turns an unacceptable status or a transport failure into a ``NetworkError``.
struct Attempt: Sendable {
    let name: String
    let builtRequest: HTTPRequest
    let transport: any HTTPTransport
    /// The transport, when it keeps time limits itself and the client runs on real time.
    let limitedTransport: (any TimeLimitedTransport)?
    let clock: any NetworkClock
    let timeout: Duration
    let deadline: CallDeadline?
    let acceptable: Set<Int>
    let sensitiveHeaderNames: Set<String>
    /// The `Accept` value sent when the request as the behaviors left it has none.
    let defaultAccept: String?

    /// Runs the attempt for `request`, measured when a ``MetricsBehavior`` put a measurement on it.
    func run(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPResponse.Body) {
        guard let call = request.callMeasurement else { return try await send(request) }
        var request = request
        let measurement = call.beginAttempt(request)
        request.attemptMeasurement = measurement
        do {
            let (response, body) = try await send(request)
            measurement.finish(.status(response.status.code), receivedBody: body.count.map(Int64.init))
            return (response, body)
        } catch {
            measurement.finish(after: error)
            throw error
        }
    }

    /// Checks `request` and sends it through the transport under the attempt's time limit.
    private func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPResponse.Body) {
        let request = try checked(request)
        let (limit, scope) = timeLimit()
        let sent = request
        let timedOut = { @Sendable [name, builtRequest, deadline] in
            NetworkError(
                .timedOut(scope), requestName: name,
                message: scope == .call
                    ? "the call did not finish within its deadline of \(deadline?.limit ?? limit)"
                    : "no complete response within the attempt time limit of \(limit)",
                builtRequest: builtRequest, sentRequest: sent)
        }
        guard limit > .zero else { throw timedOut() }
        let response: HTTPResponse
        let data: Data
        do {
            if let limitedTransport {
                (response, data) = try await limitedTransport.send(request, timeLimit: limit)
            } else {
                let transport = transport
                (response, data) = try await withTimeLimit(limit, clock: clock, onTimeout: timedOut) {
                    try await transport.send(sent)
                }
            }
        } catch is TimeLimitExceeded {
            throw timedOut()
        } catch {
            throw failure(error, sent: request)
        }
        guard acceptable.contains(response.status.code) else {
            throw NetworkError(
                .unacceptableStatus(response.status.code), requestName: name,
                message: "the server answered \(response.status)", builtRequest: builtRequest, sentRequest: request,
                response: response, body: data)
        }
        return (response, .data(data))
    }

    /// `request` as it goes to the transport: the client's sensitive names declared, the default `Accept` added
    /// when nobody set one, and every part checked.
    ///
    /// - Throws: ``NetworkError`` of kind `invalidRequest` naming the problem.
    func checked(_ request: HTTPRequest) throws -> HTTPRequest {
        var request = request
        if !sensitiveHeaderNames.isEmpty { request.headerFields.declaredSensitiveNames = sensitiveHeaderNames }
        if let defaultAccept, !request.headerFields.contains(.accept) { request.headerFields[.accept] = defaultAccept }
        if let problem = RequestValidator.problem(in: request) {
            throw NetworkError(
                .invalidRequest, requestName: name, message: "invalid request: \(problem)", builtRequest: builtRequest)
        }
        return request
    }

    /// This attempt's limit: the attempt timeout, or the time left before the call's deadline when that is shorter.
    func timeLimit() -> (Duration, NetworkError.TimeoutScope) {
        if let remaining = deadline?.remaining(), remaining < timeout {
            (remaining, .call)
        } else {
            (timeout.clampedForTimers, .attempt)
        }
    }

    /// Maps what a transport threw: cancellation and ``NetworkError`` pass through; everything else becomes a
    /// ``NetworkError`` of kind ``NetworkError/Kind/transport(_:)``.
    func failure(_ error: any Error, sent: HTTPRequest) -> any Error {
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
                .transport(.other), requestName: name, message: "\(error)", builtRequest: builtRequest,
                sentRequest: sent, underlyingError: error)
        }
        return NetworkError(
            .transport(transportError.code), requestName: name, message: transportError.description,
            builtRequest: builtRequest, sentRequest: sent, underlyingError: transportError)
    }
}
