import Foundation
import NetworkingHTTP
import NetworkingCore

/// The shared state behind ``TokenRefreshBehavior``: the current credential with a version number, and at most
/// one refresh in flight, whose result every waiting call receives.
///
/// The refresh runs in a task of its own, so cancelling one waiting call never cancels it for the others. When the
/// last waiting call gives up (cancelled, or out of time), the refresh is no longer waited for: the next call
/// starts a new one, so a refresher that never returns cannot hold every later call. The abandoned refresh still
/// stores its credential if it finishes while no newer refresh is in flight and none has stored a credential since
/// it started. (A server that rotates refresh tokens may see the two refreshes use the same one.)
final class CredentialCoordinator: Sendable {
    typealias Versioned = (credential: AccessCredential, version: Int)

    private struct State {
        var credential: AccessCredential?
        var version = 0
        var refreshing = false
        /// Counts refreshes started; a refresh that was abandoned finds a newer number and changes nothing.
        var generation = 0
        /// The generation of the refresh whose credential is stored; an older one never replaces it.
        var storedGeneration = 0
        var waiters: [UInt64: CheckedContinuation<Versioned, any Error>] = [:]
        var nextWaiter: UInt64 = 0
        var refreshTimes: [Duration] = []
    }

    private enum Step {
        case use(Versioned)
        case fail(any Error)
        case wait
        case startRefresh(Int)
    }

    private let state: LockedBox<State>
    private let refresher: any TokenRefresher
    private let clock: (any NetworkClock)?
    private let leeway: Duration
    private let maximumRefreshes: Int
    private let window: Duration

    init(
        initial: AccessCredential?, refresher: any TokenRefresher, clock: (any NetworkClock)?, leeway: Duration,
        maximumRefreshes: Int, window: Duration
    ) {
        self.state = LockedBox(State(credential: initial))
        self.refresher = refresher
        self.clock = clock
        self.leeway = leeway
        self.maximumRefreshes = maximumRefreshes
        self.window = window
    }

    /// The current credential, if any.
    var current: AccessCredential? { state.withLock { $0.credential } }

    /// How many calls wait for the refresh in flight.
    var waitingCount: Int { state.withLock { $0.waiters.count } }

    /// The current credential if it is fit to send (present, and not within the leeway of expiry); otherwise
    /// `nil` and the version a refresh must replace (see ``refreshed(after:fallback:)``); `fallback` is the call's
    /// clock, used when the behavior was given none.
    func usableNow(fallback: any NetworkClock) -> (credential: Versioned?, version: Int) {
        let limit = (clock ?? fallback).date().addingTimeInterval(leeway.seconds)
        return state.withLock { state in
            if let credential = state.credential, Self.isUsable(credential, until: limit) {
                return ((credential, state.version), state.version)
            }
            return (nil, state.version)
        }
    }

    /// Whether `credential` stays valid past `limit` (a credential without an expiry date always does).
    private static func isUsable(_ credential: AccessCredential, until limit: Date) -> Bool {
        guard let expiresAt = credential.expiresAt else { return true }
        return expiresAt > limit
    }

    /// The credential that replaces version `rejected`: a newer one if another call already refreshed, else
    /// the result of a refresh, started now or joined if one is in flight.
    func refreshed(after rejected: Int, fallback: any NetworkClock) async throws -> Versioned {
        let clock = clock ?? fallback
        let id = state.withLock { state -> UInt64 in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Versioned, any Error>) in
                let step = state.withLock { state -> Step in
                    if Task.isCancelled { return .fail(CancellationError()) }
                    if state.version != rejected, let credential = state.credential {
                        return .use((credential, state.version))
                    }
                    state.waiters[id] = continuation
                    if state.refreshing { return .wait }
                    let now = clock.now()
                    state.refreshTimes.removeAll { now - $0 >= window }
                    guard state.refreshTimes.count < maximumRefreshes else {
                        state.waiters[id] = nil
                        return .fail(TokenRefreshError.refreshLimitReached(limit: maximumRefreshes, window: window))
                    }
                    state.refreshTimes.append(now)
                    state.refreshing = true
                    state.generation += 1
                    return .startRefresh(state.generation)
                }
                switch step {
                case .use(let versioned): continuation.resume(returning: versioned)
                case .fail(let error): continuation.resume(throwing: error)
                case .wait: break
                case .startRefresh(let generation):
                    Task { await self.performRefresh(generation: generation) }
                }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                let waiter = state.waiters.removeValue(forKey: id)
                if waiter != nil, state.waiters.isEmpty, state.refreshing {
                    // The last call waiting for this refresh left: the next call starts another.
                    state.refreshing = false
                    state.generation += 1
                }
                return waiter
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Runs the refresher once and hands its outcome to every waiter.
    private func performRefresh(generation: Int) async {
        let old = current
        let outcome: Result<AccessCredential, any Error>
        do {
            outcome = .success(try await refresher.refresh(replacing: old))
        } catch {
            outcome = .failure(TokenRefreshError.refreshFailed(error))
        }
        let (waiters, result): ([CheckedContinuation<Versioned, any Error>], Result<Versioned, any Error>) =
            state.withLock { state in
                guard state.generation == generation else {
                    // Abandoned: nobody waits for it; keep its credential unless a newer refresh is under way.
                    if case .success(let credential) = outcome, !state.refreshing,
                        generation > state.storedGeneration
                    {
                        state.credential = credential
                        state.version += 1
                        state.storedGeneration = generation
                    }
                    return ([], .failure(CancellationError()))
                }
                state.refreshing = false
                let waiters = Array(state.waiters.values)
                state.waiters = [:]
                switch outcome {
                case .success(let credential):
                    state.credential = credential
                    state.version += 1
                    state.storedGeneration = generation
                    return (waiters, .success((credential, state.version)))
                case .failure(let error):
                    return (waiters, .failure(error))
                }
            }
        for waiter in waiters { waiter.resume(with: result) }
    }
}
