import Foundation
import NetworkingHTTP
import NetworkingCore

/// A call that is already running, with its progress: what the client's transfer methods return.
///
/// ```swift
/// let call = client.download(request, to: destination)
/// for await step in call.progress {
///     print(step.fractionCompleted ?? 0)
/// }
/// let result = try await call.value
/// ```
/// The call runs in a task of its own from the moment it is made. Awaiting ``value`` from a task that is then
/// cancelled cancels the call; ``cancel()`` does so directly.
public struct NetworkCall<Value: Sendable>: Sendable {
    /// Bytes done and expected, monotonic, ending at the total when the call succeeds (see ``TransferProgress``).
    public let progress: AsyncStream<TransferProgress>
    private let task: Task<Value, any Error>

    /// Starts `operation` in a task of its own, reporting to `reporter`, which is finished when the operation ends.
    ///
    /// - Parameters:
    ///   - reporter: Where the call's bytes are reported; its ``TransferProgressReporter/updates`` become
    ///     ``progress``.
    ///   - total: The total bytes of a successful result, for the last progress value; `nil` to end the progress
    ///     at the last value reported.
    ///   - operation: The call.
    package init(
        reporter: TransferProgressReporter, total: @escaping @Sendable (Value) -> Int64? = { _ in nil },
        operation: @escaping @Sendable () async throws -> Value
    ) {
        progress = reporter.updates
        task = Task {
            do {
                let value = try await operation()
                reporter.finish(totalBytes: total(value) ?? reporter.latest?.completedBytes)
                return value
            } catch {
                reporter.finish(totalBytes: nil)
                throw error
            }
        }
    }

    /// The call's outcome. Cancelling the task that awaits it cancels the call.
    public var value: Value {
        get async throws {
            try await withTaskCancellationHandler {
                try await task.value
            } onCancel: { [task] in
                task.cancel()
            }
        }
    }

    /// Cancels the call; ``value`` then throws `CancellationError`.
    public func cancel() {
        task.cancel()
    }
}
