import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

/// The cache called directly: a 304 the client accepts, cancellation, the call's clock, concurrent calls.
@Suite struct HTTPCacheBehaviorEdgeTests {
    static let url = URL(string: "https://api.test/items")!
    static let key = "https://api.test/items"

    static func stored(etag: String = "\"v1\"", maxAge: Int = 0, arrived: Date) -> HTTPCacheEntry {
        HTTPCacheEntry(
            status: 200, headerFields: ["ETag": etag, "Cache-Control": "max-age=\(maxAge)"], body: Data("kept".utf8),
            url: url, requestDate: arrived, responseDate: arrived)
    }

    @Test func a304ReturnedAsSuccessIsMergedLikeAThrownOne() async throws {
        let clock = TestClock(mode: .manual)
        let store = InMemoryHTTPCacheStore()
        store.setEntry(Self.stored(arrived: clock.date()), forKey: Self.key)
        let cache = HTTPCacheBehavior(store: store, clock: clock)
        let (response, body) = try await cache.intercept(HTTPRequest(url: Self.url), context: RequestContext()) {
            request in
            #expect(request.headerFields["If-None-Match"] == "\"v1\"")
            return (HTTPResponse(status: .notModified, headerFields: ["X-New": "1"]), .data(Data()))
        }
        #expect(response.status.code == 200)
        #expect(body.data == Data("kept".utf8))
        #expect(response.headerFields["X-New"] == "1")
        #expect(store.entry(forKey: Self.key)?.headerFields["X-New"] == "1")
    }

    @Test func cancellationDuringRevalidationIsRethrownAndTheEntryKept() async throws {
        let clock = TestClock(mode: .manual)
        let store = InMemoryHTTPCacheStore()
        let entry = Self.stored(arrived: clock.date())
        store.setEntry(entry, forKey: Self.key)
        let cache = HTTPCacheBehavior(store: store, clock: clock)
        await #expect(throws: CancellationError.self) {
            _ = try await cache.intercept(HTTPRequest(url: Self.url), context: RequestContext()) { _ in
                throw CancellationError()
            }
        }
        #expect(store.entry(forKey: Self.key) == entry)
    }

    @Test func withoutAClockOfItsOwnTheCacheUsesTheCallsClock() async throws {
        let clock = TestClock(mode: .manual)
        let store = InMemoryHTTPCacheStore()
        store.setEntry(Self.stored(maxAge: 60, arrived: clock.date()), forKey: Self.key)
        let cache = HTTPCacheBehavior(store: store)
        let context = RequestContext(clock: clock)
        let sends = LockedBox(0)
        let next: NextHandler = { _ in
            sends.withLock { $0 += 1 }
            return (HTTPResponse(status: .ok, headerFields: ["Cache-Control": "max-age=60"]), .data(Data("new".utf8)))
        }
        clock.advance(by: .seconds(59))
        _ = try await cache.intercept(HTTPRequest(url: Self.url), context: context, next: next)
        #expect(sends.current == 0)
        clock.advance(by: .seconds(2))
        _ = try await cache.intercept(HTTPRequest(url: Self.url), context: context, next: next)
        #expect(sends.current == 1)
    }

    @Test func concurrentCallsAllGetTheBodyAndLeaveOneEntry() async throws {
        let harness = try HTTPCacheHarness { _ in (200, ["Cache-Control": "max-age=60"], "shared") }
        let bodies = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<100 { group.addTask { try await harness.get().1 } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(bodies.count == 100 && bodies.allSatisfy { $0 == "shared" })
        #expect((harness.store as? InMemoryHTTPCacheStore)?.count == 1)
        let before = harness.sends
        try await harness.get()
        #expect(harness.sends == before)
    }

    @Test func aDiskStoreServesTheBehaviorToo() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try HTTPCacheHarness(store: DiskHTTPCacheStore(directory: folder)) { _ in
            (200, ["Cache-Control": "max-age=60", "Vary": "Accept-Language"], "on disk")
        }
        try await first.get(headers: ["Accept-Language": "fr"])
        let second = try HTTPCacheHarness(store: DiskHTTPCacheStore(directory: folder)) { _ in (500, [:], "") }
        let (response, body) = try await second.get(headers: ["Accept-Language": "fr"])
        #expect(second.sends == 0)
        #expect(body == "on disk")
        #expect(HTTPCacheBehavior.outcome(of: response) == .hit)
    }
}
