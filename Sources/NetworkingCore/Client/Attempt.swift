import Foundation

#if os(Linux)
    import Synchronization
#endif
import NetworkingHTTP

/// One attempt of a call, the innermost handler of its chain, and the one pipeline every form of response goes
/// through: check the request as behaviors left it; send it through the transport, following redirects hop by hop
/// under ``RedirectState``'s rules; check the status; then, for a buffered call, read the whole body within the
/// limit, or, for a stream or a download, hand the body on under an idle limit.
///
/// The time limit (the attempt timeout, or the time left before the call's deadline if that is shorter) covers
/// the head, and for a buffered call the body too; it is the one mechanism of ``withTimeLimit(_:clock:onTimeout:discard:_:)``
/// (on an ``InterruptibleTransport``, its path ``withInterruption(after:clock:discard:_:)``, called directly).
///
/// A class, immutable: the attempt is captured by the chain's terminal, the time limit's operation and the redirect
/// loop, and a copy of a struct this size (a request, two sets, a clock, a transport) cost a tenth of an in-memory
/// call in retains and releases.
package final class Attempt: Sendable {
    package let name: String
    package let builtRequest: HTTPRequest
    package let transport: any HTTPTransport
    /// Whether the time limit stops the transport's transfers itself rather than a task of the attempt's own.
    package let transportIsInterruptible: Bool
    package let clock: any NetworkClock
    package let timeout: Duration
    package let deadline: CallDeadline?
    package let acceptable: Set<Int>
    package let sensitiveHeaderNames: Set<String>
    /// The `Accept` value sent when the request as the behaviors left it has none.
    package let defaultAccept: String?
    /// How the caller receives the body.
    package let form: RequestContext.ResponseForm
    /// The largest body read into memory.
    package let maximumBodySize: Int
    /// The most redirects followed, and whether they are followed when the request does not say.
    package let maximumRedirects: Int
    package let followsRedirects: Bool
    /// What the call's attempts got, and the request as sent for the last answer this call returned (after every
    /// behavior and redirect), for an error raised after the chain, such as decoding, to redact the secrets behaviors
    /// added. On Linux a `Mutex` kept in the attempt itself (no allocation of its own per call); a lock box where
    /// `Mutex` needs a newer OS (`make portability` builds that branch on Linux too).
    // Apple docs checked: Mutex (developer.apple.com/documentation/synchronization/mutex) needs macOS 15, iOS 18,
    // tvOS 18, watchOS 11, above this package's minimums; Linux has it with the toolchain.
    #if os(Linux) && !NETWORKING_APPLE_PATHS && !NETWORKING_TSAN
        package let record = Mutex<AttemptRecord>(AttemptRecord())
    #else
        package let record = LockedBox<AttemptRecord>(AttemptRecord())
    #endif

    /// The request as sent for the last answer, from ``record``.
    package var lastSentRequest: HTTPRequest? { record.withLock { $0.lastSent } }

    /// What each attempt of the call got so far, in the order they ended.
    package var outcomes: [AttemptOutcome] { record.withLock { $0.outcomes } }

    /// Records the outcome of an attempt that threw `error`, and returns the error.
    package func recording(_ error: any Error) -> any Error {
        let outcome = AttemptOutcome(of: error)
        record.withLock { $0.append(outcome) }
        return error
    }

    /// `error` with the call's attempts on it, when it is a ``NetworkError``: what the caller gets.
    package func withAttempts(_ error: any Error) -> any Error {
        guard var error = error as? NetworkError else { return error }
        error.attempts = outcomes
        return error
    }

    package init(
        name: String, builtRequest: HTTPRequest, transport: any HTTPTransport, transportIsInterruptible: Bool,
        clock: any NetworkClock, timeout: Duration, deadline: CallDeadline?, acceptable: Set<Int>,
        sensitiveHeaderNames: Set<String>, defaultAccept: String?, form: RequestContext.ResponseForm,
        maximumBodySize: Int, maximumRedirects: Int, followsRedirects: Bool
    ) {
        self.name = name
        self.builtRequest = builtRequest
        self.transport = transport
        self.transportIsInterruptible = transportIsInterruptible
        self.clock = clock
        self.timeout = timeout
        self.deadline = deadline
        self.acceptable = acceptable
        self.sensitiveHeaderNames = sensitiveHeaderNames
        self.defaultAccept = defaultAccept
        self.form = form
        self.maximumBodySize = max(0, maximumBodySize)
        self.maximumRedirects = maximumRedirects
        self.followsRedirects = followsRedirects
    }

    /// The bytes of an unacceptable streamed answer kept for its ``NetworkError``: 64 KiB, enough for any problem
    /// document, bounded whatever the server sends.
    package static let streamedErrorBodyLimit = 64 * 1024

    /// Runs the attempt for `request` and reports it to the call's transfer observers, if any.
    package func run(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
        guard let observer = TransferObservation.startAttempt(request) else {
            return try await exchange(try checkedRecordingRefusal(request))
        }
        return try await observed(request, by: observer)
    }

    /// ``run(_:)`` reported to `observer`: in a function of its own, as its frame is needed only when someone observes.
    @inline(never)
    private func observed(_ request: HTTPRequest, by observer: any AttemptObserver) async throws -> (
        HTTPResponse, HTTPBody
    ) {
        do {
            let request = try checkedRecordingRefusal(request)
            let (response, body) = try await TransferObservation.$attempt.withValue(observer) {
                try await exchange(request, observer: observer)
            }
            let status = response.status.code
            body.onTermination { termination in
                let cancelled = if case .cancelled = termination.outcome { true } else { false }
                if case .failed(let error) = termination.outcome {
                    observer.attemptEnded(.failure(error))
                } else {
                    observer.attemptEnded(
                        .response(status: status, bodyBytes: termination.byteCount, cancelled: cancelled))
                }
            }
            return (response, body)
        } catch {
            observer.attemptEnded(.failure(error))
            throw error
        }
    }

    /// Sends `request` under the attempt's time limit and returns the answer in the call's form. Not inlined into
    /// ``run(_:)``, which calls it on two paths: inlined, its locals were in `run`'s frame twice (5 KB instead of
    /// 0.8 KB, alive for the whole attempt). Each way of limiting the time is a function of its own (an async frame
    /// is sized for every path of its function, and 10,000 calls in flight keep 10,000 of them), and the work around
    /// the wait (errors, the record) is in plain functions, whose locals are not in a frame. ``finish(_:_:sent:)`` and
    /// ``followingRedirects(_:)`` are inlined into the limited operation: each async function entered costs the
    /// runtime an executor check.
    @inline(never)
    private func exchange(
        _ request: HTTPRequest, observer: (any AttemptObserver)? = nil
    ) async throws -> (HTTPResponse, HTTPBody) {
        // A cancelled caller can only end in cancellation, never in a time-out: no timer then (as withTimeLimit).
        if transportIsInterruptible, !Task.isCancelled { return try await interruptibly(request, observer: observer) }
        return try await inTask(request, observer: observer)
    }

    /// The exchange on a transport that stops its own transfers (``InterruptibleTransport``): in the calling task,
    /// under the limit's ``TransferInterruption``, with no closure or error made unless the limit passes.
    @inline(never)
    private func interruptibly(
        _ request: HTTPRequest, observer: (any AttemptObserver)?
    ) async throws -> (HTTPResponse, HTTPBody) {
        let (limit, scope) = timeLimit()
        guard limit > .zero else { throw timedOut(scope: scope, limit: limit, sent: request) }
        let answer: (HTTPResponse, HTTPBody, HTTPRequest)?
        do {
            answer = try await withInterruption(after: limit, clock: clock, discard: Self.cancelBody) {
                try await sendAndRead(request, observer: observer)
            }
        } catch {
            throw recording(error, sent: request)
        }
        guard let answer else { throw timedOut(scope: scope, limit: limit, sent: request) }
        return delivered(answer)
    }

    /// The exchange on any other transport, or for a cancelled caller: through
    /// ``withTimeLimit(_:clock:onTimeout:discard:interruptible:_:)``, which runs it in a task of its own that the
    /// limit cancels.
    @inline(never)
    private func inTask(
        _ request: HTTPRequest, observer: (any AttemptObserver)?
    ) async throws -> (HTTPResponse, HTTPBody) {
        let (limit, scope) = timeLimit()
        guard limit > .zero else { throw timedOut(scope: scope, limit: limit, sent: request) }
        let operation: @Sendable () async throws -> (HTTPResponse, HTTPBody, HTTPRequest) = { [self] in
            try await sendAndRead(request, observer: observer)
        }
        let error = timeoutError(scope: scope, limit: limit, sent: request, what: limitedPart)
        let answer: (HTTPResponse, HTTPBody, HTTPRequest)
        do {
            answer = try await withTimeLimit(limit, clock: clock, onTimeout: error, discard: Self.cancelBody, operation)
        } catch {
            throw recording(error, sent: request)
        }
        return delivered(answer)
    }

    /// What the limit does with an answer that came after it passed: its body is cancelled.
    private static let cancelBody: @Sendable ((HTTPResponse, HTTPBody, HTTPRequest)) -> Void = { $0.1.cancel() }

    /// The time-out of this attempt's own limit, recorded as its outcome.
    @inline(never)
    private func timedOut(scope: NetworkError.TimeoutScope, limit: Duration, sent request: HTTPRequest) -> any Error {
        recording(timeoutError(scope: scope, limit: limit, sent: request))
    }

    /// What the exchange threw, as the call sees it, recorded as this attempt's outcome.
    @inline(never)
    private func recording(_ error: any Error, sent request: HTTPRequest) -> any Error {
        recording(error is NetworkError ? error : failure(error, sent: request))
    }

    /// Records the answer of the exchange and hands it on: an arriving body under the idle limit.
    @inline(never)
    private func delivered(_ answer: (HTTPResponse, HTTPBody, HTTPRequest)) -> (HTTPResponse, HTTPBody) {
        let (response, body, sent) = answer
        record.withLock { record in
            record.lastSent = sent
            record.append(.status(response.status.code))
        }
        if body.isStreaming { IdleWatch.start(on: body, attempt: self, sent: sent) }
        return (response, body)
    }

    /// The answer to `request` in the call's form, redirects followed: what the time limit covers.
    @inline(__always)
    private func sendAndRead(
        _ request: HTTPRequest, observer: (any AttemptObserver)?
    ) async throws -> (HTTPResponse, HTTPBody, HTTPRequest) {
        let (response, body, sent) = try await followingRedirects(request)
        observer?.responseHeadReceived(response)
        return try await finish(response, body, sent: sent)
    }

    /// What the time limit covers, for its error: the whole response of a buffered call, the head of a stream.
    var limitedPart: String { form == .buffered ? "no complete response" : "no response head" }

    /// Checks the status, then reads the body as the call's form asks. Each failure is made in a function of its own:
    /// inlined here, its locals were in the frame of every call (alive for the whole attempt).
    @inline(__always)
    private func finish(_ response: HTTPResponse, _ body: HTTPBody, sent: HTTPRequest) async throws -> (
        HTTPResponse, HTTPBody, HTTPRequest
    ) {
        let bodiless = sent.method == .head || response.status.code == 204 || response.status.code == 304
        if bodiless { body.cancel() }
        guard acceptable.contains(response.status.code) else {
            throw await unacceptable(response, body, bodiless: bodiless, sent: sent)
        }
        if bodiless { return (response, .empty, sent) }
        guard form == .buffered else { return (response, body, sent) }
        if let error = tooLarge(response, body) { throw error }
        if body.data != nil { return (response, body, sent) }
        do {
            var collected = HTTPBody.data(try await body.collect(upTo: maximumBodySize))
            // The trailer fields came after the body: read now that it has ended, kept beside the bytes.
            collected.trailerFields = body.trailerFields
            return (response, collected, sent)
        } catch {
            throw Self.readFailure(error)
        }
    }

    /// The error of an answer whose status the call does not accept, with the start of its body.
    @inline(never)
    private func unacceptable(_ response: HTTPResponse, _ body: HTTPBody, bodiless: Bool, sent: HTTPRequest) async
        -> NetworkError
    {
        let limit = max(0, form == .buffered ? maximumBodySize : Self.streamedErrorBodyLimit)
        let data = bodiless ? Data() : await Self.prefix(of: body, limit: limit)
        return NetworkError(
            .unacceptableStatus(response.status.code), requestName: name,
            message: "the server answered \(response.status)", builtRequest: builtRequest, sentRequest: sent,
            response: response, body: data)
    }
}
