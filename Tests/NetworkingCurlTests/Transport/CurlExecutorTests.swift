import Foundation
import NetworkingHTTP
import Testing

@testable import NetworkingCurl
import NetworkingTestSupport

/// The transport's loop thread as a task executor (`CurlTransport.executor`), without a server: work preferring it
/// runs on the loop thread, and once the loop has stopped the work still runs, elsewhere; none is ever lost.
@Suite(.enabled(if: hasTaskExecutors, "task executors need macOS 15 or iOS 18")) struct CurlExecutorTests {
    @Test func workPreferringTheExecutorRunsOnTheLoopThread() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) else { return }
        let transport = try CurlTransport()
        let names = await withTaskExecutorPreference(transport.executor) { () async -> [String] in
            var names = [currentThreadName()]
            await Task.yield()
            names.append(currentThreadName())
            return names
        }
        #expect(names == ["NetworkingCurl", "NetworkingCurl"])
    }

    @Test func structuredChildTasksInheritThePreferenceAndUnstructuredOnesDoNot() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) else { return }
        let transport = try CurlTransport()
        let names = await withTaskExecutorPreference(transport.executor) { () async -> [String] in
            async let child = currentThreadName()
            let grouped = await withTaskGroup(of: String.self) { group in
                group.addTask { currentThreadName() }
                return await group.next() ?? ""
            }
            // An unstructured task does not inherit it: it runs on the global executor.
            let unstructured = await Task { currentThreadName() }.value
            return [await child, grouped, unstructured == "NetworkingCurl" ? "inherited" : "global"]
        }
        #expect(names == ["NetworkingCurl", "NetworkingCurl", "global"])
    }

    @Test func onceTheLoopHasStoppedItsExecutorHandsWorkToTheGlobalExecutor() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) else { return }
        var transport: CurlTransport? = try CurlTransport()
        let executor = try #require(transport?.executor)
        let loop = try #require(executor as? CurlLoop)
        transport = nil
        // The loop thread ends on its own once it takes the stop command; wait for it (bounded, no sleep).
        let clock = ContinuousClock()
        let limit = clock.now.advanced(by: .seconds(120))
        while !loop.hasStopped, clock.now < limit { await Task.yield() }
        #expect(loop.hasStopped)
        // Read against a deadline, not awaited: a job the stopped loop dropped would leave the task waiting forever.
        // The deadline only catches that hang; it is long because, with the whole suite beside two busy processes,
        // Swift's global executor can be saturated for tens of seconds.
        let result = LockedBox<String?>(nil)
        Task(executorPreference: executor) {
            await Task.yield()
            result.withLock { $0 = currentThreadName() }
        }
        let wait = clock.now.advanced(by: .seconds(120))
        while result.current == nil, clock.now < wait { await Task.yield() }
        #expect(result.current != nil)
        #expect(result.current != "NetworkingCurl")
    }

    @Test func workQueuedWhileTheTransportGoesAwayAllRunsOnce() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) else { return }
        // Tasks keep handing jobs to the loop while the last reference to the transport is dropped: jobs land
        // before the stop, in the same batch as the stop, and after it. Each must run, once. A lost job would leave
        // its task waiting forever, so the count is read against a deadline rather than by awaiting the tasks (a
        // long one: it only catches that hang, and a saturated global executor can take tens of seconds).
        let clock = ContinuousClock()
        for _ in 0..<30 {
            var transport: CurlTransport? = try CurlTransport()
            let executor = try #require(transport?.executor)
            let runs = LockedBox(0)
            for task in 0..<100 {
                Task(executorPreference: executor) {
                    for _ in 0..<5 { await Task.yield() }
                    runs.withLock { $0 += 1 }
                }
                if task == 50 { transport = nil }
            }
            #expect(transport == nil)
            let limit = clock.now.advanced(by: .seconds(120))
            while runs.current < 100, clock.now < limit { await Task.yield() }
            #expect(runs.current == 100)
        }
    }
}
