import Foundation

extension Attempt {
    /// The bytes of an unacceptable streamed answer kept for its ``NetworkError``: 64 KiB, enough for any problem
    /// document, bounded whatever the server sends.
    static let streamedErrorBodyLimit = 64 * 1024

    /// Runs the attempt for `request` with the body streamed: the time limit covers the head only; then the body
    /// must not stay idle (no byte while nothing received is unread) for longer than the attempt timeout, and the call's
    /// deadline, if any, still ends it.
    func runStream(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPResponse.Body) {
        guard let call = request.callMeasurement else { return try await sendStream(request) }
        var request = request
        let measurement = call.beginAttempt(request)
        request.attemptMeasurement = measurement
        let response: HTTPResponse
        let body: HTTPResponse.Body
        do {
            (response, body) = try await sendStream(request)
        } catch {
            measurement.finish(after: error)
            throw error
        }
        measurement.responseHeadArrived()
        let status = response.status.code
        if case .stream(let stream) = body {
            stream.onTermination { measurement.finish(streamOf: status, $0) }
        } else {
            measurement.finish(.status(status), receivedBody: body.count.map(Int64.init))
        }
        return (response, body)
    }

    /// Checks `request`, sends it through the streaming transport and returns at the head.
    private func sendStream(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPResponse.Body) {
        let request = try checked(request)
        guard let streaming = transport as? any StreamingHTTPTransport else {
            let error = StreamingUnsupportedError(transportType: "\(type(of: transport))")
            throw NetworkError(
                .transport(.other), requestName: name, message: error.description, builtRequest: builtRequest,
                sentRequest: request, underlyingError: error)
        }
        let sent = request
        let (limit, scope) = timeLimit()
        let timedOut = timeoutError(scope: scope, limit: limit, sent: sent, what: "no response head")
        guard limit > .zero else { throw timedOut() }
        let response: HTTPResponse
        let stream: ResponseBodyStream
        do {
            (response, stream) = try await withTimeLimit(limit, clock: clock, onTimeout: timedOut) {
                try await streaming.stream(sent)
            }
        } catch is TimeLimitExceeded {
            throw timedOut()
        } catch {
            throw failure(error, sent: sent)
        }
        let activity = LockedBox(clock.now())
        let clock = clock
        stream.buffer.configure(
            onActivity: { activity.withLock { $0 = clock.now() } },
            errorTransform: { [self] error in failure(error, sent: sent) })
        guard acceptable.contains(response.status.code) else {
            let body = await Self.prefix(of: stream, limit: limit, clock: clock)
            throw NetworkError(
                .unacceptableStatus(response.status.code), requestName: name,
                message: "the server answered \(response.status)", builtRequest: builtRequest, sentRequest: sent,
                response: response, body: body)
        }
        watch(stream, activity: activity, sent: sent)
        return (response, .stream(stream))
    }

    /// Ends `stream` with a time-out once no byte came for the attempt timeout while nothing received was left
    /// unread (the reader waits, or will find nothing when it asks), or once the call's deadline passed. The watching task ends with the stream.
    private func watch(_ stream: ResponseBodyStream, activity: LockedBox<Duration>, sent: HTTPRequest) {
        let buffer = stream.buffer
        let idle = timeout.clampedForTimers
        let idleError = timeoutError(scope: .attempt, limit: idle, sent: sent, what: "no byte of the body")
        let deadlineError = timeoutError(scope: .call, limit: deadline?.limit ?? idle, sent: sent, what: "")
        let (clock, deadline) = (clock, deadline)
        let watcher = Task {
            while !buffer.isTerminated {
                let now = clock.now()
                let idleLeft = activity.withLock { $0 } + idle - now
                let wait = min(idleLeft, deadline?.remaining() ?? idleLeft)
                if let deadline, deadline.remaining() <= .zero {
                    buffer.finish(.failed(deadlineError()))
                    return
                }
                if idleLeft <= .zero {
                    // Idle only counts while everything received has been read: a reader still busy with buffered
                    // chunks (a full buffer included) is behind, the network is not silent on it.
                    if buffer.hasUnreadChunks {
                        activity.withLock { $0 = clock.now() }
                        continue
                    }
                    buffer.finish(.failed(idleError()))
                    return
                }
                do { try await clock.sleep(for: wait) } catch { return }
            }
        }
        buffer.onTermination { _ in watcher.cancel() }
    }

    private func timeoutError(scope: NetworkError.TimeoutScope, limit: Duration, sent: HTTPRequest, what: String)
        -> @Sendable () -> NetworkError
    {
        { [name, builtRequest, deadline] in
            NetworkError(
                .timedOut(scope), requestName: name,
                message: scope == .call
                    ? "the call did not finish within its deadline of \(deadline?.limit ?? limit)"
                    : "\(what) within the attempt time limit of \(limit)",
                builtRequest: builtRequest, sentRequest: sent)
        }
    }

    /// Up to ``streamedErrorBodyLimit`` bytes of `stream`, read within `limit`; the stream is cancelled after.
    private static func prefix(of stream: ResponseBodyStream, limit: Duration, clock: any NetworkClock) async -> Data {
        defer { stream.cancel() }
        let timeout: @Sendable () -> any Error = { TimeLimitExceeded() }
        let collected = try? await withTimeLimit(limit, clock: clock, onTimeout: timeout) {
            var data = Data()
            for try await chunk in stream {
                data.append(chunk.prefix(streamedErrorBodyLimit - data.count))
                if data.count >= streamedErrorBodyLimit { break }
            }
            return data
        }
        return collected ?? Data()
    }
}
