import Foundation
import Testing

@testable import NetworkingCurl
import NetworkingTestSupport

/// The easy handles a transport reuses: taken, reset when given back, kept up to a limit, freed once closed.
@Suite struct CurlHandlePoolTests {
    static func pool() throws -> CurlHandlePool {
        CurlHandlePool(api: try CurlLibrary.system.get().api)
    }

    @Test func aHandleGivenBackIsTheNextOneTakenWithAnEmptyErrorText() throws {
        let pool = try Self.pool()
        defer { pool.close() }
        let first = try #require(pool.take())
        first.errorBuffer[0] = 0x61  // libcurl wrote an error text
        pool.give(first)
        let second = try #require(pool.take())
        #expect(second.easy == first.easy)
        #expect(second.errorBuffer == first.errorBuffer)
        #expect(second.errorBuffer[0] == 0)
        pool.give(second)
    }

    @Test func atMostTheLimitIsKept() throws {
        let pool = try Self.pool()
        defer { pool.close() }
        let handles = (0...CurlHandlePool.limit).compactMap { _ in pool.take() }
        #expect(handles.count == CurlHandlePool.limit + 1)
        for handle in handles { pool.give(handle) }
        // The one over the limit was freed.
        #expect(pool.keptCount == CurlHandlePool.limit)
        let kept = Set((0..<CurlHandlePool.limit).compactMap { _ in pool.take()?.easy })
        #expect(kept.isSubset(of: Set(handles.map(\.easy))))
        #expect(pool.keptCount == 0)
    }

    @Test func aClosedPoolKeepsNothing() throws {
        let pool = try Self.pool()
        pool.give(try #require(pool.take()))
        #expect(pool.keptCount == 1)
        let handle = try #require(pool.take())
        pool.close()
        pool.give(handle)
        #expect(pool.keptCount == 0)
    }
}
