import NetworkingHTTP
import NetworkingCore

// Apple docs checked: UIApplication.beginBackgroundTask(withName:expirationHandler:), endBackgroundTask(_:) and
// UIBackgroundTaskIdentifier.invalid (developer.apple.com/documentation/uikit/uiapplication), main actor; the
// expiration handler runs on the main thread; watchOS has no UIApplication.
#if canImport(UIKit) && !os(watchOS)
    import Foundation
    import UIKit

    /// The ``BackgroundTaskProvider`` for apps on iOS, tvOS and visionOS: `UIApplication` background tasks.
    ///
    /// Begins on the main actor. Ends synchronously when called on the main thread (as from the expiration
    /// handler, which UIKit calls on the main thread), else on the main actor as soon as possible. Not available in
    /// app extensions, which have no `UIApplication.shared`.
    @available(iOSApplicationExtension, unavailable)
    @available(tvOSApplicationExtension, unavailable)
    @available(visionOSApplicationExtension, unavailable)
    @available(macCatalystApplicationExtension, unavailable)
    public struct UIApplicationBackgroundTaskProvider: BackgroundTaskProvider {
        /// Creates the provider.
        public init() {}

        /// Calls `UIApplication.shared.beginBackgroundTask(withName:expirationHandler:)` on the main actor.
        ///
        /// - Parameters:
        ///   - name: The task's name, shown in the system's diagnostics.
        ///   - expirationHandler: Called on the main thread when background time runs out.
        /// - Returns: The task's identifier, or `nil` when UIKit returned `.invalid`.
        public func beginTask(named name: String, expirationHandler: @escaping @Sendable () -> Void) async -> Int? {
            await MainActor.run {
                let task = UIApplication.shared.beginBackgroundTask(withName: name) { expirationHandler() }
                return task == .invalid ? nil : task.rawValue
            }
        }

        /// Calls `UIApplication.shared.endBackgroundTask(_:)`: at once on the main thread, else on the main actor.
        ///
        /// - Parameter identifier: An identifier returned by ``beginTask(named:expirationHandler:)``.
        public func endTask(_ identifier: Int) {
            if Thread.isMainThread {
                MainActor.assumeIsolated {
                    UIApplication.shared.endBackgroundTask(UIBackgroundTaskIdentifier(rawValue: identifier))
                }
            } else {
                Task { @MainActor in
                    UIApplication.shared.endBackgroundTask(UIBackgroundTaskIdentifier(rawValue: identifier))
                }
            }
        }
    }
#endif
