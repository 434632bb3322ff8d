import Foundation
import NetworkingHTTP
import NetworkingCore

/// What one attempt of a call cost, measured by the client and the transport: delivered to a ``MetricsSink`` by
/// ``MetricsBehavior``.
///
/// Times come from the clock of the behavior (the client's by default). They are measured the same way on every
/// platform, including Linux, where Foundation's own task metrics never arrive.
public struct AttemptMetrics: Sendable, Hashable, CustomStringConvertible {
    /// How an attempt ended.
    public enum Outcome: Sendable, Hashable, CustomStringConvertible {
        /// A response arrived with this status, acceptable or not.
        case status(Int)
        /// No response: the attempt failed with a `NetworkError` of this kind (transport, time limit, invalid).
        case failed(NetworkError.Kind)
        /// The attempt was cancelled.
        case cancelled

        /// `status(200)`, `failed(transport(cannotConnect))`, `cancelled`.
        public var description: String {
            switch self {
            case .status(let code): "status(\(code))"
            case .failed(let kind): "failed(\(kind))"
            case .cancelled: "cancelled"
            }
        }
    }

    /// The request's name, such as `GET /users/42`.
    public var requestName: String
    /// The call's id, shared by its attempts (`RequestContext/callID`).
    public var callID: UUID
    /// The attempt's number in its call, from 1.
    public var attempt: Int
    /// The method sent.
    public var method: HTTPMethod
    /// The URL sent, when the target forms one.
    public var url: URL?
    /// Time from the call reaching the metrics behavior to this attempt reaching the transport: behaviors at work,
    /// back-off before a retry, waits for a token refresh or a queue.
    public var chainWait: Duration
    /// Time from the attempt reaching the transport to the response head; `nil` when no head arrived.
    public var timeToResponseHead: Duration?
    /// Time from the attempt reaching the transport to its end, body included.
    public var duration: Duration
    /// Body bytes sent.
    public var bytesSent: Int64
    /// Body bytes received, as handed to the client (after content decoding).
    public var bytesReceived: Int64
    /// The status, or why there was none.
    public var outcome: Outcome
    /// Whether the attempt reused a connection, when the transport knows (Apple platforms, the libcurl transport);
    /// `nil` otherwise (the Foundation transport on Linux).
    public var reusedConnection: Bool?
    /// What the transport reported about the attempt (name lookup, connect and TLS times, first byte, protocol,
    /// bytes on the wire); `nil` when it reported nothing.
    public var transport: TransportMetrics?

    /// Creates a measurement.
    ///
    /// - Parameters:
    ///   - requestName: The request's name.
    ///   - callID: The call's id.
    ///   - attempt: The attempt's number, from 1.
    ///   - method: The method sent.
    ///   - url: The URL sent.
    ///   - chainWait: Time spent before the transport.
    ///   - timeToResponseHead: Time to the response head.
    ///   - duration: Time in the transport.
    ///   - bytesSent: Body bytes sent.
    ///   - bytesReceived: Body bytes received.
    ///   - outcome: The status, or why there was none.
    ///   - reusedConnection: Whether a connection was reused, when known.
    ///   - transport: What the transport reported, if anything.
    public init(
        requestName: String, callID: UUID, attempt: Int, method: HTTPMethod, url: URL?, chainWait: Duration,
        timeToResponseHead: Duration?, duration: Duration, bytesSent: Int64, bytesReceived: Int64, outcome: Outcome,
        reusedConnection: Bool?, transport: TransportMetrics? = nil
    ) {
        self.transport = transport
        self.requestName = requestName
        self.callID = callID
        self.attempt = attempt
        self.method = method
        self.url = url
        self.chainWait = chainWait
        self.timeToResponseHead = timeToResponseHead
        self.duration = duration
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
        self.outcome = outcome
        self.reusedConnection = reusedConnection
    }

    /// `GET /users/42 #2 status(200) wait 0.5 s head 0.02 s total 0.03 s sent 0 B received 512 B`.
    public var description: String {
        let head = timeToResponseHead.map { " head \(Self.seconds($0))" } ?? ""
        let reuse = reusedConnection.map { $0 ? " reused" : " new connection" } ?? ""
        let version = transport?.httpVersion.map { " \($0)" } ?? ""
        return "\(requestName) #\(attempt) \(outcome) wait \(Self.seconds(chainWait))\(head) total "
            + "\(Self.seconds(duration)) sent \(bytesSent) B received \(bytesReceived) B\(reuse)\(version)"
    }

    private static func seconds(_ duration: Duration) -> String {
        let value = (duration.timeInterval * 1000).rounded() / 1000
        return "\(value) s"
    }
}
