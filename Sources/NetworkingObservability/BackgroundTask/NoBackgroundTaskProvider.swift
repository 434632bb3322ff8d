import NetworkingHTTP
import NetworkingCore

/// A ``BackgroundTaskProvider`` that never gets background time: the default where there is no UIKit
/// (macOS, watchOS, Linux), where ``BackgroundTaskBehavior`` then does nothing.
public struct NoBackgroundTaskProvider: BackgroundTaskProvider {
    /// Creates the provider.
    public init() {}

    /// Begins nothing.
    ///
    /// - Parameters:
    ///   - name: Ignored.
    ///   - expirationHandler: Never called.
    /// - Returns: `nil`.
    public func beginTask(named name: String, expirationHandler: @escaping @Sendable () -> Void) async -> Int? {
        nil
    }

    /// Does nothing.
    ///
    /// - Parameter identifier: Ignored.
    public func endTask(_ identifier: Int) {}
}
