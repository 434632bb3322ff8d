import NetworkingHTTP
import NetworkingCore

/// Asks the operating system for time to finish work when the app leaves the foreground, for
/// ``BackgroundTaskBehavior``.
///
/// On iOS, tvOS and visionOS this is `UIApplicationBackgroundTaskProvider`; elsewhere
/// ``NoBackgroundTaskProvider``. Tests use a fake that records calls and can fire the expiration handler.
/// ```swift
/// final class RecordingProvider: BackgroundTaskProvider {
///     func beginTask(named name: String, expirationHandler: @escaping @Sendable () -> Void) async -> Int? { 1 }
///     func endTask(_ identifier: Int) {}
/// }
/// ```
public protocol BackgroundTaskProvider: Sendable {
    /// Starts a background task.
    ///
    /// - Parameters:
    ///   - name: A name for the system's diagnostics.
    ///   - expirationHandler: Called (at most once) when the system is about to suspend the app. The caller ends
    ///     the task from inside it, synchronously, through ``endTask(_:)``.
    /// - Returns: The task's identifier, or `nil` when no background time is available.
    func beginTask(named name: String, expirationHandler: @escaping @Sendable () -> Void) async -> Int?

    /// Ends a task. Synchronous, so it can run inside the expiration handler and in `defer`.
    ///
    /// - Parameter identifier: An identifier returned by ``beginTask(named:expirationHandler:)``.
    func endTask(_ identifier: Int)
}
