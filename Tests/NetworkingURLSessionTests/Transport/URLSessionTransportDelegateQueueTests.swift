import Foundation
import Testing

@testable import Networking
@testable import NetworkingHTTP
@testable import NetworkingCore
@testable import NetworkingTLS
@testable import NetworkingURLSession
@testable import NetworkingAuth
@testable import NetworkingResilience
@testable import NetworkingHTTPCache
@testable import NetworkingCookies
@testable import NetworkingObservability
@testable import NetworkingTransfers
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    /// The Linux delegate queue of `URLSessionTransport`: it holds back whoever adds blocks while 64 wait, but
    /// never for good, and runs every block once, in order.
    @Suite struct URLSessionTransportDelegateQueueTests {
        @Test func aStalledQueueHoldsTheAdderBackOnlyForABoundedTime() async throws {
            let queue = URLSessionTransportDelegateQueue()
            queue.maxConcurrentOperationCount = 1
            queue.isSuspended = true
            let order = LockedBox<[Int]>([])
            // Past 64 queued blocks each add waits for room, gives up after its bounded wait, and queues anyway:
            // a queue that never drains cannot deadlock the network side.
            let count = URLSessionTransportDelegateQueue.maximumPending + 8
            for index in 0..<count {
                queue.addOperation { order.withLock { $0.append(index) } }
            }
            #expect(order.current.isEmpty)
            queue.isSuspended = false
            try await BehaviorFakes.waitUntil { order.current.count == count }
            #expect(order.current == Array(0..<count))
        }

        @Test func blocksAddedFromAnotherThreadAllRunOnceInOrder() async throws {
            let queue = URLSessionTransportDelegateQueue()
            queue.maxConcurrentOperationCount = 1
            let order = LockedBox<[Int]>([])
            let count = 5000
            let producer = Thread {
                for index in 0..<count { queue.addOperation { order.withLock { $0.append(index) } } }
            }
            producer.start()
            try await BehaviorFakes.waitUntil { order.current.count == count }
            #expect(order.current == Array(0..<count))
        }
    }
#endif
