import Foundation
import Networking
import Testing
import NetworkingTestSupport

/// The in-memory LRU store: byte limit, least recently used first, settings checked.
@Suite struct InMemoryHTTPCacheStoreTests {
    static func entry(bytes: Int) -> HTTPCacheEntry {
        HTTPCacheEntry(
            status: 200, headerFields: [:], body: Data(repeating: 0, count: bytes), requestDate: Date(),
            responseDate: Date())
    }

    @Test func storesReplacesAndRemoves() {
        let store = InMemoryHTTPCacheStore()
        #expect(store.entry(forKey: "a") == nil)
        store.setEntry(Self.entry(bytes: 1), forKey: "a")
        store.setEntry(Self.entry(bytes: 2), forKey: "a")
        #expect(store.entry(forKey: "a")?.body.count == 2)
        #expect(store.count == 1)
        #expect(store.totalCost == Self.entry(bytes: 2).cost)
        store.removeEntry(forKey: "a")
        #expect(store.entry(forKey: "a") == nil)
        #expect(store.totalCost == 0)
    }

    @Test func theLeastRecentlyUsedEntryGoesFirst() throws {
        let cost = Self.entry(bytes: 100).cost
        let store = try InMemoryHTTPCacheStore(maximumBytes: cost * 3)
        for key in ["a", "b", "c"] { store.setEntry(Self.entry(bytes: 100), forKey: key) }
        _ = store.entry(forKey: "a")  // a is now the most recently used
        store.setEntry(Self.entry(bytes: 100), forKey: "d")
        #expect(store.entry(forKey: "b") == nil)
        #expect(store.entry(forKey: "a") != nil)
        #expect(store.entry(forKey: "c") != nil)
        #expect(store.entry(forKey: "d") != nil)
        #expect(store.totalCost <= cost * 3)
    }

    @Test func anEntryLargerThanTheLimitIsNotStored() throws {
        let store = try InMemoryHTTPCacheStore(maximumBytes: 1_000)
        store.setEntry(Self.entry(bytes: 10), forKey: "small")
        store.setEntry(Self.entry(bytes: 5_000), forKey: "big")
        #expect(store.entry(forKey: "big") == nil)
        #expect(store.entry(forKey: "small") != nil)
    }

    @Test func manyReadsAndWritesStayWithinTheLimitAndKeepRecentEntries() throws {
        let cost = Self.entry(bytes: 10).cost
        let store = try InMemoryHTTPCacheStore(maximumBytes: cost * 50)
        for round in 0..<10_000 {
            store.setEntry(Self.entry(bytes: 10), forKey: "k\(round % 200)")
            _ = store.entry(forKey: "k\(round % 7)")
        }
        #expect(store.count == 50)
        #expect(store.totalCost == cost * 50)
        #expect(store.entry(forKey: "k\(9_999 % 200)") != nil)
        store.removeAll()
        #expect(store.count == 0)
    }

    /// A full cache evicts one entry for each new one: the use order it reads to find them must not keep every
    /// pair it has read (100,000 distinct keys through room for 50).
    @Test func aFullCacheKeepsItsBookkeepingBoundedByItsEntries() throws {
        let store = try InMemoryHTTPCacheStore(maximumBytes: Self.entry(bytes: 10).cost * 50)
        var mostSlots = 0
        for round in 0..<100_000 {
            store.setEntry(Self.entry(bytes: 10), forKey: "key-\(round)")
            if round % 3 == 0 { _ = store.entry(forKey: "key-\(round - 1)") }
            mostSlots = max(mostSlots, store.useOrderSlotCount)
        }
        #expect(store.count == 50)
        #expect(mostSlots <= 2 * 50 + 64 + 1)
    }

    @Test(arguments: [0, -1])
    func aLimitBelowOneIsRefused(limit: Int) {
        #expect(throws: BehaviorSettingsError.self) { try InMemoryHTTPCacheStore(maximumBytes: limit) }
        #expect(InMemoryHTTPCacheStore().maximumBytes == 10 << 20)
    }
}
