import Foundation
import NetworkingHTTP
import NetworkingCore

/// Asks the system for time to finish each call if the app goes to the background while it runs.
///
/// ```swift
/// let behavior = CombinedBehavior([.activityCounter(onChange: showSpinner), .backgroundTask(), .logging(), .retry()])
/// ```
/// - A task begins before `next` and ends **exactly once** per call: when the call succeeds (for a streamed body,
///   a stream or a download, when the body ends, is cancelled or is dropped), fails, throws or is cancelled, or
///   earlier, when the system says time is up (the expiration handler ends it; the normal path
///   then does not end it again). An expiry while the task is still being begun ends it as soon as its
///   identifier is known.
/// - Expiry does not cancel the call: it goes on until it completes or the app is suspended.
/// - When the provider gives no background time (it returns `nil`), the call simply runs.
/// - Put it outside retry so one task covers every attempt and the back-off between them.
///
/// Defaults: provider `UIApplicationBackgroundTaskProvider` where UIKit exists (iOS, tvOS, visionOS, not in app
/// extensions) and ``NoBackgroundTaskProvider`` elsewhere; task name `Networking <request name>`, such as
/// `Networking GET /users/42`. State kept: one lock-guarded task state per call; the injected
/// ``BackgroundTaskProvider``.
public struct BackgroundTaskBehavior: RequestBehavior {
    /// `BehaviorPlacement/observation`: the whole call, retries and waits included.
    public var placement: BehaviorPlacement { .observation }

    private enum TaskState {
        case beginning
        case expiredWhileBeginning
        case running(Int)
        case ended
    }

    /// Where tasks come from.
    public let provider: any BackgroundTaskProvider

    /// Creates the behavior.
    ///
    /// - Parameter provider: Where tasks come from.
    public init(provider: any BackgroundTaskProvider) {
        self.provider = provider
    }

    /// Begins a task, runs the rest of the chain, and ends the task unless it already expired.
    ///
    /// - Parameters:
    ///   - request: The request, passed on unchanged.
    ///   - context: The call's context; its `requestName` names the task.
    ///   - next: The rest of the chain.
    /// - Returns: What `next` returned.
    /// - Throws: What `next` threw, unchanged.
    public func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        let provider = provider
        let state = LockedBox(TaskState.beginning)
        let identifier = await provider.beginTask(named: "Networking \(context.requestName)") {
            let expired: Int? = state.withLock { state in
                switch state {
                case .beginning:
                    state = .expiredWhileBeginning
                    return nil
                case .running(let identifier):
                    state = .ended
                    return identifier
                case .expiredWhileBeginning, .ended:
                    return nil
                }
            }
            if let expired { provider.endTask(expired) }
        }
        let endAtOnce: Bool = state.withLock { state in
            guard let identifier else {
                state = .ended
                return false
            }
            if case .expiredWhileBeginning = state {
                state = .ended
                return true
            }
            state = .running(identifier)
            return false
        }
        if endAtOnce, let identifier { provider.endTask(identifier) }
        let end: @Sendable () -> Void = { [provider] in
            let running: Int? = state.withLock { state in
                guard case .running(let identifier) = state else { return nil }
                state = .ended
                return identifier
            }
            if let running { provider.endTask(running) }
        }
        let result: (HTTPResponse, HTTPResponse.Body)
        do {
            result = try await next(request)
        } catch {
            end()
            throw error
        }
        // A streamed body (a stream, a download) is part of the call: the task ends when it ends.
        if result.1.isStreaming {
            result.1.onTermination { _ in end() }
        } else {
            end()
        }
        return result
    }
}

extension RequestBehavior where Self == BackgroundTaskBehavior {
    /// Keeps each call alive in the background with `provider`'s tasks.
    ///
    /// - Parameter provider: Where tasks come from.
    /// - Returns: The behavior.
    public static func backgroundTask(provider: any BackgroundTaskProvider) -> BackgroundTaskBehavior {
        BackgroundTaskBehavior(provider: provider)
    }

    // Apple docs checked: UIApplication.beginBackgroundTask(withName:expirationHandler:) and endBackgroundTask(_:)
    // (developer.apple.com/documentation/uikit/uiapplication), iOS and tvOS, main actor; watchOS has no UIApplication.
    #if canImport(UIKit) && !os(watchOS)
        /// Keeps each call alive in the background with `UIApplication` background tasks.
        ///
        /// - Returns: The behavior, on `UIApplicationBackgroundTaskProvider`.
        @available(iOSApplicationExtension, unavailable)
        @available(tvOSApplicationExtension, unavailable)
        @available(visionOSApplicationExtension, unavailable)
        @available(macCatalystApplicationExtension, unavailable)
        public static func backgroundTask() -> BackgroundTaskBehavior {
            BackgroundTaskBehavior(provider: UIApplicationBackgroundTaskProvider())
        }
    #else
        /// On platforms without UIKit there is no background time to ask for: the behavior does nothing.
        ///
        /// - Returns: The behavior, on `NoBackgroundTaskProvider`.
        public static func backgroundTask() -> BackgroundTaskBehavior {
            BackgroundTaskBehavior(provider: NoBackgroundTaskProvider())
        }
    #endif
}
