import CCurlShim
import Foundation
import Testing

@testable import NetworkingCurl
import NetworkingTestSupport

/// The transport's loop thread as a task executor (`CurlTransport.executor`), without a server: work preferring it
/// runs on the loop thread, and once the transport is gone the work still runs, elsewhere.
@Suite struct CurlExecutorTests {
    /// The system's name for the thread running the caller.
    static func threadName() -> String {
        var name = [CChar](repeating: 0, count: 64)
        _ = ncurl_thread_name(&name, UInt(name.count))
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test func workPreferringTheExecutorRunsOnTheLoopThread() async throws {
        let transport = try CurlTransport()
        let names = await withTaskExecutorPreference(transport.executor) { () async -> [String] in
            var names = [Self.threadName()]
            await Task.yield()
            names.append(Self.threadName())
            return names
        }
        #expect(names == ["NetworkingCurl", "NetworkingCurl"])
        let child = await withTaskExecutorPreference(transport.executor) { () async -> String in
            await withTaskGroup(of: String.self) { group in
                group.addTask { Self.threadName() }
                return await group.next() ?? ""
            }
        }
        #expect(child == "NetworkingCurl", "a child task inherits the preference")
    }

    @Test(.timeLimit(.minutes(1))) func onceTheTransportIsGoneItsExecutorHandsWorkToTheGlobalExecutor() async throws {
        var transport: CurlTransport? = try CurlTransport()
        let executor = try #require(transport?.executor)
        let loop = try #require(executor as? CurlLoop)
        transport = nil
        // The loop thread ends on its own once it takes the stop command; wait for it (bounded, no sleep).
        let clock = ContinuousClock()
        let limit = clock.now.advanced(by: .seconds(10))
        while !loop.hasStopped, clock.now < limit { await Task.yield() }
        #expect(loop.hasStopped)
        let result = await withTaskExecutorPreference(executor) { () async -> (Int, String) in
            await Task.yield()
            return (42, Self.threadName())
        }
        #expect(result.0 == 42)
        #expect(result.1 != "NetworkingCurl")
    }
}
