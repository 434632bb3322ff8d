import Foundation
import Networking
import Testing
import NetworkingTestSupport

/// `TransferProgress`, `TransferProgressReporter` and `NetworkCall`: the progress plumbing every transfer shares.
@Suite struct TransferProgressTests {
    private func collect(_ updates: AsyncStream<TransferProgress>) async -> [TransferProgress] {
        var values: [TransferProgress] = []
        for await value in updates { values.append(value) }
        return values
    }

    @Test func fractionAndDescription() {
        #expect(TransferProgress(completedBytes: 1024, expectedBytes: 4096).fractionCompleted == 0.25)
        #expect(TransferProgress(completedBytes: 0, expectedBytes: 0).fractionCompleted == 1)
        #expect(TransferProgress(completedBytes: 9, expectedBytes: 4).fractionCompleted == 1)
        #expect(TransferProgress(completedBytes: 5, expectedBytes: nil).fractionCompleted == nil)
        #expect("\(TransferProgress(completedBytes: 1024, expectedBytes: 4096))" == "1024 of 4096 bytes")
        #expect("\(TransferProgress(completedBytes: 1024, expectedBytes: nil))" == "1024 bytes")
    }

    @Test func reporterDropsValuesThatGoBackAndEndsAtTheTotal() async throws {
        let reporter = TransferProgressReporter()
        let reader = Task { await collect(reporter.updates) }
        // An unbuffered reader could miss intermediate values (newest kept), so check the kept ones are monotonic.
        reporter.report(completedBytes: 10, expectedBytes: 30)
        reporter.report(completedBytes: 5, expectedBytes: 30)  // a retry starting again: dropped
        reporter.report(completedBytes: 20, expectedBytes: 30)
        reporter.finish(totalBytes: 30)
        reporter.report(completedBytes: 40, expectedBytes: 30)  // after finish: ignored
        let values = await reader.value
        #expect(values.last == TransferProgress(completedBytes: 30, expectedBytes: 30))
        #expect(values.map(\.completedBytes) == values.map(\.completedBytes).sorted())
        #expect(!values.contains { $0.completedBytes == 5 || $0.completedBytes == 40 })
        #expect(reporter.latest == TransferProgress(completedBytes: 30, expectedBytes: 30))
    }

    @Test func failedTransferEndsWhereItWas() async throws {
        let reporter = TransferProgressReporter()
        reporter.report(completedBytes: 7, expectedBytes: 100)
        reporter.finish(totalBytes: nil)
        let values = await collect(reporter.updates)
        #expect(values == [TransferProgress(completedBytes: 7, expectedBytes: 100)])
    }
}
