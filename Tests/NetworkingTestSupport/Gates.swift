import Foundation
import Networking

/// Suspends callers until `count` of them have arrived, then releases them all: makes "N calls in flight at once"
/// deterministic without sleeping.
package final class Barrier: Sendable {
    private let state = LockedBox<(arrived: Int, waiting: [CheckedContinuation<Void, Never>])>((0, []))
    private let count: Int

    package init(_ count: Int) { self.count = count }

    package func arrive() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let release: [CheckedContinuation<Void, Never>] = state.withLock { state in
                state.arrived += 1
                state.waiting.append(continuation)
                guard state.arrived >= count else { return [] }
                defer { state.waiting = [] }
                return state.waiting
            }
            for waiter in release { waiter.resume() }
        }
    }
}

/// Suspends callers until `open()` is called; callers after that pass at once.
package final class Gate: Sendable {
    private let state = LockedBox<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    package init() {}

    package func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let passNow = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiting.append(continuation)
                return false
            }
            if passNow { continuation.resume() }
        }
    }

    package func open() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for waiter in waiting { waiter.resume() }
    }
}

/// Yields until `condition` holds (no sleeping); gives up after `limit` yields so a broken test fails, not hangs.
package func eventually(_ limit: Int = 1_000_000, _ condition: () -> Bool) async -> Bool {
    for _ in 0..<limit {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}
