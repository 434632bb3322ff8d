import Foundation
import NetworkingHTTP
import NetworkingCore

/// One attempt's record: the client reports the head and the end, the transport the bytes it sent and its own
/// metrics; the record goes to the sink once, when the attempt ends.
final class AttemptMeasurement: AttemptObserver {
    private struct State {
        var head: Duration?
        var bytesSent: Int64?
        var transport: TransportMetrics?
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
        self.bodyBytes = request.body.length ?? 0
        self.started = call.clock.now()
    }

    func responseHeadReceived(_ response: HTTPResponse) {
        let now = call.clock.now()
        state.withLock { if $0.head == nil { $0.head = now } }
    }

    func bytesSent(_ total: Int64, of expected: Int64?) {
        state.withLock { $0.bytesSent = max(0, total) }
    }

    func transportReported(_ metrics: TransportMetrics) {
        state.withLock { $0.transport = metrics }
    }

    /// Ends the attempt: a response is its status (or `cancelled` when its body was cancelled unread to the end), an
    /// unacceptable status its status, a `NetworkError` a failure of its kind, anything else (cancellation) a
    /// cancelled attempt.
    func attemptEnded(_ ending: AttemptEnding) {
        switch ending {
        case .response(let status, let bytes, let cancelled):
            finish(cancelled ? .cancelled : .status(status), receivedBody: bytes)
        case .failure(let error as NetworkError):
            if case .unacceptableStatus(let code) = error.kind {
                finish(.status(code), receivedBody: Int64(error.body?.count ?? 0))
            } else {
                finish(.failed(error.kind), receivedBody: 0)
            }
        case .failure:
            finish(.cancelled, receivedBody: 0)
        }
    }

    /// Delivers the attempt's measurements once.
    private func finish(_ outcome: AttemptMetrics.Outcome, receivedBody: Int64) {
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
                bytesSent: state.bytesSent ?? state.transport?.bytesSent ?? bodyBytes, bytesReceived: receivedBody,
                outcome: outcome, reusedConnection: state.transport?.reusedConnection, transport: state.transport))
    }
}
