import Foundation

/// One attempt's record; the transport writes to it, the client's attempt reads it when the attempt ends.
package final class AttemptMeasurement: Sendable {
    private struct State {
        var head: Duration?
        var bytesSent: Int64?
        var bytesReceived: Int64?
        var reused: Bool?
        var delivered = false
    }

    private let call: CallMeasurement
    private let number: Int
    private let method: HTTPMethod
    private let url: URL?
    private let bodyBytes: Int64
    private let started: Duration
    private let state = LockedBox(State())

    init(call: CallMeasurement, number: Int, request: HTTPRequest) {
        self.call = call
        self.number = number
        self.method = request.method
        self.url = request.url
        self.bodyBytes = Int64(request.body.data?.count ?? 0)
        self.started = call.clock.now()
    }

    /// Notes that the response head arrived now (the first head counts; redirect hops included).
    package func responseHeadArrived() {
        let now = call.clock.now()
        state.withLock { if $0.head == nil { $0.head = now } }
    }

    /// Adds the body bytes a task of the transport sent (one task per redirect hop); the transport's count replaces
    /// the client's count of the request body.
    package func addBytesSent(_ count: Int64) {
        state.withLock { $0.bytesSent = ($0.bytesSent ?? 0) + max(0, count) }
    }

    /// Adds body bytes received as they arrive (redirect hops included); the transport's count replaces the
    /// client's count of the response body.
    package func addBytesReceived(_ count: Int64) {
        state.withLock { $0.bytesReceived = ($0.bytesReceived ?? 0) + max(0, count) }
    }

    /// Notes whether the connection was reused.
    package func noteConnectionReused(_ reused: Bool) {
        state.withLock { $0.reused = reused }
    }

    /// Ends the attempt that threw `error`: an unacceptable status is a response, a ``NetworkError`` a failure of
    /// its kind, anything else (cancellation) a cancelled attempt.
    func finish(after error: any Error) {
        guard let error = error as? NetworkError else { return finish(.cancelled, receivedBody: nil) }
        if case .unacceptableStatus(let code) = error.kind {
            finish(.status(code), receivedBody: Int64(error.body?.count ?? 0))
        } else {
            finish(.failed(error.kind), receivedBody: nil)
        }
    }

    /// Ends the attempt of a streamed body when the stream ends: a finished stream is its head's status, a failed
    /// one the failure, a cancelled or dropped one `cancelled`; the bytes are those the stream delivered.
    func finish(streamOf status: Int, _ termination: ResponseBodyStream.Termination) {
        switch termination.outcome {
        case .finished:
            finish(.status(status), receivedBody: termination.byteCount)
        case .cancelled:
            finish(.cancelled, receivedBody: termination.byteCount)
        case .failed(let error):
            let kind = (error as? NetworkError)?.kind ?? .transport(.other)
            finish(error is CancellationError ? .cancelled : .failed(kind), receivedBody: termination.byteCount)
        }
    }

    /// Ends the attempt and delivers its measurements once.
    ///
    /// - Parameters:
    ///   - outcome: How it ended.
    ///   - receivedBody: The body bytes the client received, when the transport did not count them.
    func finish(_ outcome: AttemptMetrics.Outcome, receivedBody: Int64?) {
        let end = call.clock.now()
        guard
            let state = state.withLock({ state -> State? in
                guard !state.delivered else { return nil }
                state.delivered = true
                return state
            })
        else { return }
        let head: Duration? =
            if let head = state.head { head - started } else if case .status = outcome { end - started } else { nil }
        call.sink.record(
            AttemptMetrics(
                requestName: call.requestName, callID: call.callID, attempt: number, method: method, url: url,
                chainWait: started - call.start, timeToResponseHead: head, duration: end - started,
                bytesSent: state.bytesSent ?? bodyBytes, bytesReceived: state.bytesReceived ?? receivedBody ?? 0,
                outcome: outcome, reusedConnection: state.reused))
    }
}
