import Foundation
import NetworkingTesting
import Testing

@testable import Networking
@testable import NetworkingHTTP
@testable import NetworkingCore
@testable import NetworkingHTTPCache
import NetworkingTestSupport

/// The HTTP cache keeps a response's trailer fields with its body and serves them with it.
@Suite struct HTTPCacheTrailerTests {
    @Test func aStoredResponseIsServedWithItsTrailerFields() async throws {
        let mock = MockTransport().stub(
            .get, "/t",
            MockResponse.data(Data("body".utf8), headers: ["Cache-Control": "max-age=60"])
                .trailer("X-Checksum", "42"))
        let client = try makeClient(transport: mock, behavior: .httpCache(store: InMemoryHTTPCacheStore()))
        let first = try await client.response(for: NetworkRequest<Data>(path: "/t"))
        let second = try await client.response(for: NetworkRequest<Data>(path: "/t"))
        #expect(mock.requestCount == 1, "the second call is served from the store")
        #expect(first.trailerFields?[HTTPField.Name("X-Checksum")] == "42")
        #expect(second.trailerFields?[HTTPField.Name("X-Checksum")] == "42")
        #expect(second.body == Data("body".utf8))
    }

    @Test func theDiskStoreKeepsTrailerFieldsAndReadsAnEntryWithoutThemAsHavingNone() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trailers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var entry = DiskHTTPCacheStoreTests.entry
        entry.trailerFields = ["X-Checksum": "42", "x-count": "4"]
        let store = DiskHTTPCacheStore(directory: folder)
        store.setEntry(entry, forKey: "https://api.test/with")
        store.setEntry(DiskHTTPCacheStoreTests.entry, forKey: "https://api.test/without")
        let reopened = DiskHTTPCacheStore(directory: folder)
        #expect(reopened.entry(forKey: "https://api.test/with") == entry)
        #expect(reopened.entry(forKey: "https://api.test/without")?.trailerFields == nil)
        // A 1.0 file has no `trailers` key in its head: the same bytes as one written without trailers.
        let encoded = try #require(DiskHTTPCacheFormat.encode(DiskHTTPCacheStoreTests.entry, key: "k"))
        #expect(!String(decoding: encoded, as: UTF8.self).contains("trailers"))
    }
}
