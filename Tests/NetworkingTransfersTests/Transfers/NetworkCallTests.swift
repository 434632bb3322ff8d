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

/// `NetworkCall`: runs at once, ends its progress with the call, and cancels with its awaiting task.
@Suite struct NetworkCallTests {
    @Test func valueAndProgressEndAtTheTotal() async throws {
        let reporter = TransferProgressReporter()
        let call = NetworkCall(
            reporter: reporter, total: { (value: Int) in Int64(value) },
            operation: {
                reporter.report(completedBytes: 3, expectedBytes: 8)
                return 8
            })
        #expect(try await call.value == 8)
        var last: TransferProgress?
        for await step in call.progress { last = step }
        #expect(last == TransferProgress(completedBytes: 8, expectedBytes: 8))
    }

    @Test func cancelEndsTheOperationWithCancellationError() async throws {
        let started = LockedBox(false)
        let call = NetworkCall(reporter: TransferProgressReporter()) { () async throws -> Int in
            started.withLock { $0 = true }
            try await Task.sleep(for: .seconds(3600))
            return 1
        }
        try await BehaviorFakes.waitUntil { started.current }
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        var count = 0
        for await _ in call.progress { count += 1 }
        #expect(count == 0)
    }

    @Test func cancellingTheAwaitingTaskCancelsTheCall() async throws {
        let started = LockedBox(false)
        let call = NetworkCall(reporter: TransferProgressReporter()) { () async throws -> Int in
            started.withLock { $0 = true }
            try await Task.sleep(for: .seconds(3600))
            return 1
        }
        let waiter = Task { try await call.value }
        try await BehaviorFakes.waitUntil { started.current }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        await #expect(throws: CancellationError.self) { try await call.value }
    }
}
