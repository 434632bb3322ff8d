import Foundation
import NetworkingHTTP

/// An attempt's checks and errors: the request as behaviors left it, the size of a buffered answer, the time limit
/// and the errors that name the request.
extension Attempt {
    /// The error of a buffered answer known to be larger than the limit before it is read (its `Content-Length`, or
    /// bytes already in memory); its body is cancelled. `nil` when it may be read.
    @inline(never)
    func tooLarge(_ response: HTTPResponse, _ body: HTTPBody) -> TransportError? {
        if let announced = response.headerFields[.contentLength].flatMap({ Int64($0.trimmingSpacesAndTabs) }),
            announced > maximumBodySize
        {
            body.cancel()
            return TransportError(
                .responseTooLarge, "Content-Length \(announced) exceeds the limit of \(maximumBodySize) bytes")
        }
        // Already in memory (a mock, a fixture, a cache): nothing to wait for, so no read to suspend on.
        if let data = body.data, data.count > maximumBodySize {
            return TransportError(.responseTooLarge, HTTPBody.TooLargeError(limit: maximumBodySize).description)
        }
        return nil
    }

    /// What reading a buffered body threw, as the attempt reports it.
    @inline(never)
    static func readFailure(_ error: any Error) -> any Error {
        guard let tooLarge = error as? HTTPBody.TooLargeError else { return error }
        return TransportError(.responseTooLarge, tooLarge.description)
    }

    /// Up to `limit` bytes of `body`; the body is cancelled after.
    static func prefix(of body: HTTPBody, limit: Int) async -> Data {
        defer { body.cancel() }
        var data = Data()
        do {
            for try await chunk in body {
                data.append(chunk.prefix(max(0, limit - data.count)))
                if data.count >= limit { break }
            }
        } catch {}
        return data
    }

    /// ``checked(_:)``, recording a refusal as this attempt's outcome.
    func checkedRecordingRefusal(_ request: HTTPRequest) throws -> HTTPRequest {
        do { return try checked(request) } catch { throw recording(error) }
    }

    /// `request` as it goes to the transport: the client's sensitive names declared, the default `Accept` added
    /// when nobody set one, and every part checked.
    ///
    /// - Throws: ``NetworkError`` of kind `invalidRequest` naming the problem.
    package func checked(_ request: HTTPRequest) throws -> HTTPRequest {
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
    package func timeLimit() -> (Duration, NetworkError.TimeoutScope) {
        // The deadline's instant alone, read on the attempt's clock (the call's, which the deadline was made on): no
        // copy of the deadline and its clock.
        if let instant = deadline?.instant, case let remaining = instant - clock.now(), remaining < timeout {
            (remaining, .call)
        } else {
            (timeout.clampedForTimers, .attempt)
        }
    }

    /// The time-out error of this attempt, made when the limit passes.
    package func timeoutError(scope: NetworkError.TimeoutScope, limit: Duration, sent: HTTPRequest, what: String)
        -> @Sendable () -> NetworkError
    {
        { [name, builtRequest, deadline] in
            Self.timeoutError(
                scope: scope, limit: limit, sent: sent, what: what, name: name, builtRequest: builtRequest,
                deadline: deadline)
        }
    }

    /// The time-out error of this attempt's own limit, made now.
    func timeoutError(scope: NetworkError.TimeoutScope, limit: Duration, sent: HTTPRequest) -> NetworkError {
        Self.timeoutError(
            scope: scope, limit: limit, sent: sent, what: limitedPart, name: name, builtRequest: builtRequest,
            deadline: deadline)
    }

    static func timeoutError(
        scope: NetworkError.TimeoutScope, limit: Duration, sent: HTTPRequest, what: String, name: String,
        builtRequest: HTTPRequest, deadline: CallDeadline?
    ) -> NetworkError {
        NetworkError(
            .timedOut(scope), requestName: name,
            message: scope == .call
                ? "the call did not finish within its deadline of \(deadline?.limit ?? limit)"
                : "\(what) within the attempt time limit of \(limit)",
            builtRequest: builtRequest, sentRequest: sent)
    }

    /// Maps what a transport threw: cancellation and ``NetworkError`` pass through; everything else becomes a
    /// ``NetworkError`` of kind ``NetworkError/Kind/transport(_:)``.
    package func failure(_ error: any Error, sent: HTTPRequest) -> any Error {
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
