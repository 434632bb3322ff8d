// swift-format-ignore-file
import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

// The offline-first samples of HTTPCacheAndCookies.md, verbatim (indentation aside), on a client whose cache sits
// over a mock server that can be made to fail; the suite below runs them.

private let serverIsDown = LockedBox(false)
private let server = MockTransport { request in
    if serverIsDown.current { return (HTTPResponse(status: .serviceUnavailable, url: request.url), Data()) }
    return (
        HTTPResponse(status: .ok, headerFields: ["Cache-Control": "max-age=0", "Content-Type": "application/json"], url: request.url),
        Data(#"[{"id":1}]"#.utf8)
    )
}
private let cachedClient = NetworkClient(
    configuration: .init(baseURL: URL(string: "https://api.example.com/v1")!, transport: server, behavior: .httpCache()))

struct Item: Codable, Equatable, Sendable { let id: Int }

let items = NetworkRequest<[Item]>(path: "/items")

// Cached, then refreshed: show what the cache holds at once (stale or not, no network), then ask the server.
func showItems(_ show: ([Item]) -> Void) async throws {
    if let saved = try? await cachedClient.send(items, behavior: .cachePolicy(.offline)) { show(saved) }
    show(try await cachedClient.send(items))
}

// Offline: answer from the cache or fail at once. Nothing stored is a 504, an `OnlyIfCachedMiss` behind it,
// which no retry, hedge or circuit breaker counts: nothing was sent.
func savedItems() async throws -> [Item]? {
    do {
        return try await cachedClient.send(items, behavior: .cachePolicy(.offline))
    } catch let error as NetworkError where error.underlyingError is OnlyIfCachedMiss {
        return nil
    }
}

// The network first; when it fails (or answers 500, 502, 503, 504), a stored answer up to a day stale.
func itemsEvenWhenTheServerIsDown() async throws -> [Item] {
    try await cachedClient.send(items, behavior: .cachePolicy(.staleIfError(upTo: .seconds(86_400))))
}

@Suite(.serialized) struct OfflineFirstSamplesTests {
    @Test func theOfflineFirstRecipesDoWhatTheArticleSays() async throws {
        #expect(try await savedItems() == nil)
        #expect(server.requestCount == 0)
        var shown: [[Item]] = []
        try await showItems { shown.append($0) }
        #expect(shown == [[Item(id: 1)]] && server.requestCount == 1)
        try await showItems { shown.append($0) }
        #expect(shown.count == 3 && server.requestCount == 2)
        #expect(try await savedItems() == [Item(id: 1)])
        serverIsDown.withLock { $0 = true }
        #expect(try await itemsEvenWhenTheServerIsDown() == [Item(id: 1)])
        #expect(server.requestCount == 3)
        let blocks = try DocumentSamples.swiftBlock(in: "Sources/Networking/Networking.docc/HTTPCacheAndCookies.md") {
            $0.contains("let items = ")
        }
        #expect(try DocumentSamples.isCompiled(blocks, in: #filePath))
    }
}
