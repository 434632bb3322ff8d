import Foundation
import NetworkingHTTP
import NetworkingCore

/// Where a transport reports the bytes of one call as they move; the caller reads them as ``updates``.
///
/// The client makes one for each call of a progress-reporting API and feeds it what the transport reports through
/// `TransferObservation` (a transport that cannot count bytes reports nothing; the last value is then the total). The reporter keeps the sequence a caller sees monotonic: a value below one already
/// reported (a retry starting again from zero) is dropped, and ``finish(totalBytes:)`` ends it at the total.
public final class TransferProgressReporter: Sendable {
    private struct State {
        var last: TransferProgress?
        var finished = false
    }

    /// The progress values, newest kept when the reader is slower than the transfer; ends with the call.
    public let updates: AsyncStream<TransferProgress>
    private let continuation: AsyncStream<TransferProgress>.Continuation
    private let state = LockedBox(State())

    /// Creates a reporter with nothing reported yet.
    public init() {
        (updates, continuation) = AsyncStream.makeStream(
            of: TransferProgress.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Reports bytes done so far. Ignored after ``finish(totalBytes:)``, and when `completedBytes` is below what was
    /// already reported.
    ///
    /// - Parameters:
    ///   - completedBytes: Bytes done in this attempt.
    ///   - expectedBytes: The total, when known.
    public func report(completedBytes: Int64, expectedBytes: Int64?) {
        let value = TransferProgress(completedBytes: max(0, completedBytes), expectedBytes: expectedBytes)
        let send: Bool = state.withLock { state in
            guard !state.finished else { return false }
            if let last = state.last {
                guard
                    value.completedBytes > last.completedBytes
                        || (value.completedBytes == last.completedBytes && value.expectedBytes != last.expectedBytes)
                else { return false }
            }
            state.last = value
            return true
        }
        if send { continuation.yield(value) }
    }

    /// Ends the updates. With `totalBytes`, the transfer succeeded and the last value is `totalBytes` of
    /// `totalBytes`; with `nil` (a failure or a cancellation), the updates end where they were.
    ///
    /// - Parameter totalBytes: The bytes the finished transfer moved, or `nil` when it did not finish.
    public func finish(totalBytes: Int64?) {
        let last: TransferProgress? = state.withLock { state in
            guard !state.finished else { return nil }
            state.finished = true
            guard let totalBytes else { return nil }
            let final = TransferProgress(completedBytes: totalBytes, expectedBytes: totalBytes)
            guard final != state.last else { return nil }
            state.last = final
            return final
        }
        if let last { continuation.yield(last) }
        continuation.finish()
    }

    /// The last value reported, if any.
    public var latest: TransferProgress? { state.withLock { $0.last } }
}
