import Foundation
import NetworkingHTTP
import NetworkingCore
import NetworkingTLS

// Linux only: Apple's URLSession applies backpressure through URLSessionTask.suspend()
// (developer.apple.com/documentation/foundation/urlsessiontask/suspend()), so its delegate queue is a plain one.
#if canImport(FoundationNetworking)
    import FoundationNetworking

    /// The delegate queue of ``URLSessionTransport`` on Linux: flow control for the body.
    ///
    /// swift-corelibs-foundation's URLSession reads the socket on its own queue and hands each read (16 KiB) to
    /// the delegate queue with `addOperation`, without waiting: when the delegate is slower than the network (a
    /// download writing to disk), the reads pile up in memory. This queue makes `addOperation` wait while more than
    /// ``maximumPending`` blocks are queued, so the network side goes at the delegate's pace, as a suspended task
    /// does on Apple platforms. The wait is bounded by ``longestWait``: a block that itself waited for the network
    /// side cannot hold it up for longer, so nothing deadlocks; memory is then a soft bound for that moment only.
    final class URLSessionTransportDelegateQueue: OperationQueue, @unchecked Sendable {
        /// Blocks queued before `addOperation` waits: 64 reads, about 1 MiB of body, enough to keep the delegate
        /// busy while the network side is woken.
        static let maximumPending = 64
        /// The longest one `addOperation` waits for room: 20 ms, long enough to ride out any disk write, short
        /// enough that a stall (another session's work waiting behind it) goes unnoticed.
        static let longestWait: TimeInterval = 0.02

        private let condition = NSCondition()
        private let pending = LockedBox((count: 0, waiting: false))

        override func addOperation(_ block: @escaping @Sendable () -> Void) {
            condition.lock()
            let deadline = Date(timeIntervalSinceNow: Self.longestWait)
            while pending.withLock({ $0.count >= Self.maximumPending }) {
                pending.withLock { $0.waiting = true }
                if !condition.wait(until: deadline) { break }
            }
            pending.withLock { $0.count += 1 }
            condition.unlock()
            super.addOperation { [self] in
                block()
                condition.lock()
                // The network side is woken once half the room is free: one wake-up per 32 blocks, not one each.
                let wake = pending.withLock { state in
                    state.count -= 1
                    guard state.waiting, state.count <= Self.maximumPending / 2 else { return false }
                    state.waiting = false
                    return true
                }
                if wake { condition.signal() }
                condition.unlock()
            }
        }
    }
#endif
