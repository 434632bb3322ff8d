import CCurlShim
import Foundation
import NetworkingCore
import NetworkingHTTP

/// One request on libcurl: its easy handle, the caller waiting for the head, and the body's producer side.
///
/// Made on the caller's thread and, unless it will wait its turn (``CurlLoop/setsUpOnCallerThread(_:)``), given its
/// easy handle and configured there; then handed to the loop thread, which alone touches it from then on (setup of
/// a transfer that waited, callbacks, pause and resume, completion). What the caller's side still touches after the hand-over is in
/// `shared`, behind a lock; hence `@unchecked Sendable`.
final class CurlTransfer: @unchecked Sendable {
    typealias Head = (HTTPResponse, HTTPBody)

    /// What the caller's side and the loop thread share.
    struct Shared {
        /// The caller waiting for the head; `nil` before it waits and once it has an answer.
        var continuation: CheckedContinuation<Head, any Error>?
        /// Set once the call has an outcome (or was cancelled): the transfer must not start, or must stop.
        var ended = false
        /// The time limit's interruption this transfer is registered with, to unregister when it ends.
        var interruption: (TransferInterruption, UInt64)?
    }

    /// The easy handle, from ``prepare(_:)`` on: a call that waits for room in its origin's line has none (5 KiB
    /// less held per waiting call) until it enters the engine. Taken from the loop's ``CurlHandlePool`` and given
    /// back when the transfer is released, after which it may serve another transfer: the loop finds a transfer by
    /// its handle only together with its identity (`active[easy] === transfer`).
    private(set) var easy: UnsafeMutableRawPointer!
    /// libcurl's text for the last failure (CURLOPT_ERRORBUFFER), which comes with the handle.
    private(set) var errorBuffer: UnsafeMutablePointer<CChar>?
    let loop: CurlLoop
    let request: HTTPRequest
    /// The request's URL, formed once (the setup and the response both need it).
    let url: URL?
    /// `scheme://authority`, the line this transfer waits in for a connection (``CurlAdmission``), formed on the
    /// caller's thread rather than the loop's.
    let origin: String
    let observer: (any AttemptObserver)?
    let bufferLimit: Int
    let shared = LockedBox(Shared())
    var headerList: UnsafeMutableRawPointer?
    var upload: CurlUpload?

    // Loop thread only, from the hand-over on.
    var head = CurlHeadParser()
    var body: BodyBuffer?
    /// The head and body opened but not yet handed to the caller.
    var pendingHead: Head?
    /// Whether libcurl decodes this transfer's body (the request named no `Accept-Encoding`, so the transport
    /// announced the codings libcurl decodes); switched off at the head when the server used another coding.
    var decodes = false
    var pausedReceiving = false
    var pausedSending = false
    /// Whether the transport finds the response's end itself, because libcurl would report it only once the
    /// request body has ended too (``watchesResponseEnd``, `CurlTransfer+ResponseEnd.swift`).
    var watchesResponseEnd = false
    /// Whether libcurl passes a chunked body through undecoded for the transport to read (a watched response that
    /// libcurl does not decode).
    var passesChunksThrough = false
    /// Where the response ends, when watched; `.ended` once it has.
    var responseEnd = ResponseEnd.atCompletion
    /// Why the response's framing cannot be read (a broken chunked body the transport decodes itself).
    var framingFailure: String?
    /// Whether the request body goes in chunks (no length announced), so trailer fields can follow it.
    var sendsChunked = false
    /// Whether the easy handle may serve another transfer once this one is released: libcurl finished it cleanly,
    /// nothing paused (``CurlHandlePool``).
    private var reusable = false
    private var released = false

    var api: UnsafeMutablePointer<ncurl_api> { loop.library.api }
    var isEnded: Bool { shared.withLock { $0.ended } }

    init(loop: CurlLoop, request: HTTPRequest, bufferLimit: Int) {
        self.loop = loop
        self.request = request
        self.url = request.url
        self.origin = request.scheme + "://" + request.authority
        self.observer = TransferObservation.attempt
        self.bufferLimit = bufferLimit
        loop.transferBegan()
    }

    /// Makes the easy handle and sets every option of the request on it; the error the call fails with, or `nil`.
    func prepare(_ settings: CurlSettings) -> TransportError? {
        guard let handle = loop.handles.take() else {
            return TransportError(.other, "libcurl could not make a transfer (out of memory); nothing was sent")
        }
        easy = handle.easy
        errorBuffer = handle.errorBuffer
        if let problem = configure(settings) {
            return TransportError(.other, "libcurl refused the request: \(problem); nothing was sent")
        }
        return nil
    }

    /// Waits for the head: hands the transfer to the loop once the caller waits, and stops it when the calling
    /// task is cancelled or the attempt's time limit interrupts it (``TransferInterruption``).
    func start() async throws -> Head {
        let interruption = TransferInterruption.current
        let head = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Head, any Error>) in
                let waiting = shared.withLock { shared in
                    guard !shared.ended else { return false }
                    shared.continuation = continuation
                    return true
                }
                guard waiting else { return continuation.resume(throwing: CancellationError()) }
                if let interruption {
                    guard let registration = interruption.register({ [weak self] in self?.stop() }) else {
                        return stop()
                    }
                    shared.withLock { $0.interruption = (interruption, registration) }
                }
                loop.submit(.add(self))
            }
        } onCancel: {
            stop()
        }
        // The loop may hand the head over before this task has suspended; it released this lock after making the body.
        shared.synchronize()
        return head
    }

    /// Stops the transfer from the caller's side: its caller, if still waiting, gets `CancellationError`, and the
    /// loop takes it out of the engine (any thread).
    private func stop() {
        let continuation = shared.withLock { shared in
            shared.ended = true
            defer { shared.continuation = nil }
            return shared.continuation
        }
        continuation?.resume(throwing: CancellationError())
        loop.submit(.cancel(self, CancellationError()))
    }

    /// The head is complete (loop thread): the body opens, fed from now on; the caller gets both at
    /// ``deliverHead()``, once libcurl's current round of work is done, so that a small response is usually
    /// complete by the time its caller wakes (one thread hop per call, not three).
    func openBody() {
        guard body == nil else { return }
        let response = head.response(url: url)
        // The codings matter only where libcurl decodes (the request named no Accept-Encoding).
        var decoded = false
        if decodes {
            let codings = Self.codings(of: response)
            if !codings.isSubset(of: loop.library.decodedCodings), loop.library.decidesDecodingPerWrite {
                // A coding libcurl cannot decode (the server used one it was not offered): the body goes to the
                // caller as it came, its Content-Encoding intact, rather than failing in libcurl
                // (CURLE_BAD_CONTENT_ENCODING).
                decodes = false
                _ = ncurl_setopt_long(api, easy, CurlOption.httpContentDecoding, 0)
            } else {
                decoded = codings.contains { $0 != "identity" && $0 != "none" }
            }
        }
        let length = decoded ? nil : head.contentLength
        let (stream, _) = HTTPBody.makeStream(length: length, bufferLimit: bufferLimit) { [weak self] in
            guard let self else { return }
            loop.submit(.resumeReceiving(self))
        }
        guard let buffer = stream.buffer else { return }
        body = buffer
        buffer.onTermination { [weak self] termination in
            if case .finished = termination.outcome { return }
            guard let self else { return }
            shared.withLock { $0.ended = true }
            loop.submit(.cancel(self, CancellationError()))
        }
        observer?.responseHeadReceived(response)
        pendingHead = (response, stream)
        loop.headReady(self)
        if watchesResponseEnd { watchResponseEnd(status: response.status.code, decoded: decoded) }
    }

    /// The content codings of `response`, lower-cased, in no order.
    static func codings(of response: HTTPResponse) -> Set<String> {
        var codings = Set<String>()
        for member in FieldSyntax.listMembers(response.headerFields[values: .contentEncoding], quoted: false) {
            codings.insert(FieldSyntax.token(member) ?? String(member))
        }
        return codings
    }

    /// Hands the head and its body to the caller, if not done yet (loop thread).
    func deliverHead() {
        guard let head = pendingHead else { return }
        pendingHead = nil
        let continuation = shared.withLock { shared in
            defer { shared.continuation = nil }
            return shared.continuation
        }
        if let continuation {
            continuation.resume(returning: head)
        } else {
            body?.finish(.cancelled)
        }
    }

    /// Body bytes arrived (loop thread). Returns what libcurl must be told: the count taken, or 0 to stop.
    func receive(_ bytes: UnsafeRawBufferPointer) -> Int {
        if body == nil { openBody() }
        guard let body else { return 0 }
        if watchesResponseEnd { return receiveWatchingEnd(bytes, into: body) }
        return deliver(Data(bytes), to: body) ? bytes.count : 0
    }

    /// libcurl finished the transfer (loop thread, already out of the multi handle).
    func complete(result: Int32) {
        reportMetrics()
        reusable = result == 0 && !pausedReceiving && !pausedSending
        // A response that ended while the request body was still sending was whole: what happened to the rest of
        // the request (the server closed, or reset the stream, RFC 9113 §8.1) does not change the answer.
        if result == 0 || responseEnd == .ended {
            if body == nil { openBody() }
            end(nil)
        } else if let framingFailure {
            end(TransportError(.badServerResponse, "\(framingFailure) (libcurl error \(result))"))
        } else {
            let headFailure = head.failure.map {
                TransportError(.other, "\($0) (\(errorMessage(result)), libcurl error \(result))")
            }
            end(headFailure ?? upload?.failure ?? CurlFailure.error(code: result, message: errorMessage(result)))
        }
    }

    /// Ends the transfer with `error` (loop thread, out of the multi handle, or never in it).
    func fail(_ error: any Error) {
        end(error)
    }

    private func end(_ error: (any Error)?) {
        // The handle goes back before anyone wakes: a caller's next call finds it kept for reuse.
        release()
        // The body ends first, then its caller wakes to find it complete.
        if let error {
            body?.finish(error is CancellationError ? .cancelled : .failed(error))
        } else {
            // libcurl hands a chunked body's trailer section (HTTP/2: its trailing HEADERS) to the header callback
            // after the body, before the transfer completes.
            body?.finish(.finished, trailerFields: head.trailerFields.isEmpty ? nil : head.trailerFields)
        }
        deliverHead()
        let continuation = shared.withLock { shared in
            shared.ended = true
            defer { shared.continuation = nil }
            return shared.continuation
        }
        if let continuation {
            continuation.resume(throwing: error ?? TransportError(.badServerResponse, "no HTTP response head came"))
        }
    }

    /// Frees the easy handle and what it points to; once.
    func release() {
        guard !released else { return }
        released = true
        loop.transferEnded()
        if let (interruption, registration) = shared.withLock({ $0.interruption }) {
            interruption.unregister(registration)
        }
        upload?.stop()
        if let easy, let errorBuffer {
            let handle = CurlHandlePool.Handle(easy: easy, errorBuffer: errorBuffer)
            if reusable { loop.handles.give(handle) } else { loop.handles.free(handle) }
        }
        if let headerList { api.pointee.slist_free_all(headerList) }
        headerList = nil
    }

    private func errorMessage(_ code: Int32) -> String {
        let detail = errorBuffer.map { String(cString: $0) } ?? ""
        return detail.isEmpty ? loop.library.describe(code) : detail
    }
}
