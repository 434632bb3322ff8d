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

/// The folder store: survives a new instance, drops corrupt files, trims to its limit.
@Suite struct DiskHTTPCacheStoreTests {
    static func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("DiskHTTPCacheStoreTests-\(UUID().uuidString)")
    }

    static let entry = HTTPCacheEntry(
        status: 200, headerFields: ["Content-Type": "application/json", "ETag": "\"v1\"", "Vary": "Accept"],
        body: Data("{\"a\":1}".utf8), url: URL(string: "https://api.test/items"),
        varyingRequestFields: ["accept": "application/json"],
        requestDate: Date(timeIntervalSince1970: 1_700_000_000),
        responseDate: Date(timeIntervalSince1970: 1_700_000_001))

    @Test func anEntrySurvivesANewStoreOnTheSameFolder() {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        DiskHTTPCacheStore(directory: folder).setEntry(Self.entry, forKey: "https://api.test/items")
        let reopened = DiskHTTPCacheStore(directory: folder)
        #expect(reopened.entry(forKey: "https://api.test/items") == Self.entry)
        #expect(reopened.entry(forKey: "https://api.test/other") == nil)
        reopened.removeEntry(forKey: "https://api.test/items")
        #expect(reopened.entry(forKey: "https://api.test/items") == nil)
    }

    @Test func theVariantsOfAURLSurviveTogether() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var entry = Self.entry
        var other = Self.entry
        other.varyingRequestFields = ["accept": "text/plain"]
        other.body = Data("plain".utf8)
        entry.otherVariants = [other]
        DiskHTTPCacheStore(directory: folder).setEntry(entry, forKey: "https://api.test/items")
        let read = try #require(DiskHTTPCacheStore(directory: folder).entry(forKey: "https://api.test/items"))
        #expect(read == entry)
        #expect(read.otherVariants.map(\.body) == [Data("plain".utf8)])
    }

    @Test func everyTruncationOfAFileIsDroppedAsCorrupt() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = DiskHTTPCacheStore(directory: folder)
        let key = "https://api.test/items"
        store.setEntry(Self.entry, forKey: key)
        let file = store.fileURL(forKey: key)
        let whole = try Data(contentsOf: file)
        for length in 0..<whole.count {
            try whole.prefix(length).write(to: file)
            #expect(store.entry(forKey: key) == nil, "length \(length)")
            #expect(!FileManager.default.fileExists(atPath: file.path))
        }
        try (whole + Data([0])).write(to: file)
        #expect(store.entry(forKey: key) == nil)
    }

    @Test func aFileMovedToAnotherKeyIsNotServed() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = DiskHTTPCacheStore(directory: folder)
        store.setEntry(Self.entry, forKey: "a")
        try FileManager.default.moveItem(at: store.fileURL(forKey: "a"), to: store.fileURL(forKey: "b"))
        #expect(store.entry(forKey: "b") == nil)
    }

    @Test(.timeLimit(.minutes(1))) func hundredThousandMutatedFilesNeverCrash() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = DiskHTTPCacheStore(directory: folder)
        let key = "k"
        store.setEntry(Self.entry, forKey: key)
        let file = store.fileURL(forKey: key)
        let original = [UInt8](try Data(contentsOf: file))
        var random = BehaviorFakes.SeededGenerator(seed: 1_234)
        var decoded = 0
        for round in 0..<100_000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let position = Int.random(in: 0..<bytes.count, using: &random)
                bytes[position] = UInt8.random(in: 0...255, using: &random)
            }
            if round % 10 == 0 { bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random))) }
            // The store's reader, without the disk round trip.
            if DiskHTTPCacheFormat.decode(Data(bytes), key: key) != nil { decoded += 1 }
        }
        // Most single-byte changes inside the body or a header value still decode; the rest are refused.
        #expect(decoded > 0 && decoded < 100_000)
    }

    @Test func theFolderIsTrimmedToItsLimitOldestFirst() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let probe = DiskHTTPCacheStore(directory: folder)
        probe.setEntry(Self.entry, forKey: "size")
        let size = try Data(contentsOf: probe.fileURL(forKey: "size")).count
        probe.removeAll()
        let store = try DiskHTTPCacheStore(directory: folder, maximumBytes: size * 2 + size / 2)
        store.setEntry(Self.entry, forKey: "a")
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -100)], ofItemAtPath: store.fileURL(forKey: "a").path)
        store.setEntry(Self.entry, forKey: "b")
        store.setEntry(Self.entry, forKey: "c")
        #expect(store.entry(forKey: "a") == nil)
        #expect(store.entry(forKey: "b") != nil)
        #expect(store.entry(forKey: "c") != nil)
    }

    @Test func removeAllDeletesOnlyEntryFiles() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = DiskHTTPCacheStore(directory: folder)
        store.setEntry(Self.entry, forKey: "a")
        let other = folder.appendingPathComponent("notes.txt")
        try Data("keep".utf8).write(to: other)
        store.removeAll()
        #expect(store.entry(forKey: "a") == nil)
        #expect(FileManager.default.fileExists(atPath: other.path))
    }

    @Test func anUnwritableFolderMisses() throws {
        let file = Self.folder()
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("not a folder".utf8).write(to: file)
        let store = DiskHTTPCacheStore(directory: file)
        store.setEntry(Self.entry, forKey: "a")
        #expect(store.entry(forKey: "a") == nil)
        #expect(throws: BehaviorSettingsError.self) { try DiskHTTPCacheStore(directory: file, maximumBytes: 0) }
    }
}
