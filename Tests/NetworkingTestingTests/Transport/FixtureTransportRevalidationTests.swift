import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

/// `FixtureTransport` validators: an `ETag` from the body and `304` for a matching `If-None-Match`, so the HTTP
/// cache revalidates against fixtures.
@Suite struct FixtureTransportRevalidationTests {
    static func get(_ path: String, _ headers: HTTPFields = [:], method: HTTPMethod = .get) -> HTTPRequest {
        HTTPRequest(method: method, url: URL(string: "https://api.test\(path)")!, headerFields: headers)
    }

    @Test func aGetCarriesAStableETagMadeFromTheBody() async throws {
        let folder = try FixtureFolder(["a.GET.json": "{\"a\": 1}", "b.GET.json": "{\"b\": 2}"])
        let (first, _) = try await folder.transport.send(Self.get("/a"))
        let (again, _) = try await folder.transport.send(Self.get("/a"))
        let (other, _) = try await folder.transport.send(Self.get("/b"))
        let tag = try #require(first.headerFields["ETag"])
        #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && tag.count == 34)
        #expect(again.headerFields["ETag"] == tag)
        #expect(other.headerFields["ETag"] != tag)
        #expect(first.headerFields["Cache-Control"] == nil)
    }

    @Test(arguments: ["TAG", "W/TAG", "\"x\", TAG", "*"])
    func aMatchingIfNoneMatchIsAnswered304WithoutABody(condition: String) async throws {
        let folder = try FixtureFolder(["a.GET.json": "{\"a\": 1}"])
        let (plain, _) = try await folder.transport.send(Self.get("/a"))
        let tag = try #require(plain.headerFields["ETag"])
        let header = condition.replacingOccurrences(of: "TAG", with: tag)
        let (response, body) = try await folder.transport.send(Self.get("/a", ["If-None-Match": header]))
        #expect(response.status.code == 304)
        #expect(body.isEmpty)
        #expect(response.headerFields["ETag"] == tag)
    }

    @Test func aStaleIfNoneMatchGetsTheFullBody() async throws {
        let folder = try FixtureFolder(["a.GET.json": "{\"a\": 1}"])
        let (response, body) = try await folder.transport.send(Self.get("/a", ["If-None-Match": "\"old\""]))
        #expect(response.status.code == 200)
        #expect(!body.isEmpty)
    }

    @Test func theManifestsHeadersAndStatusesAreKept() async throws {
        let folder = try FixtureFolder([
            "fixtures.json": """
            {"routes": {"GET /a": {"headers": {"Cache-Control": "max-age=60", "ETag": "\\"mine\\""}},
                        "POST /a": {"status": 201, "body": {}}}}
            """,
            "a.GET.json": "{}",
        ])
        let (response, _) = try await folder.transport.send(Self.get("/a"))
        #expect(response.headerFields["ETag"] == "\"mine\"")
        #expect(response.headerFields["Cache-Control"] == "max-age=60")
        let (notModified, _) = try await folder.transport.send(Self.get("/a", ["If-None-Match": "\"mine\""]))
        #expect(notModified.status.code == 304)
        #expect(notModified.headerFields["Cache-Control"] == "max-age=60")
        let (created, _) = try await folder.transport.send(Self.get("/a", ["If-None-Match": "*"], method: .post))
        #expect(created.status.code == 201)
        #expect(created.headerFields["ETag"] == nil)
    }

    @Test func theHTTPCacheRevalidatesAgainstFixtures() async throws {
        let folder = try FixtureFolder(["a.GET.json": "{\"a\": 1}"])
        let kinds = LockedBox<[HTTPCacheEvent.Kind]>([])
        let client = NetworkClient(
            configuration: .init(
                baseURL: URL(string: "https://api.test")!, transport: folder.transport,
                behavior: .httpCache { event in kinds.withLock { $0.append(event.kind) } }))
        let first = try await client.response(for: NetworkRequest<Data>(path: "/a"))
        let second = try await client.response(for: NetworkRequest<Data>(path: "/a"))
        #expect(second.body == first.body)
        #expect(HTTPCacheBehavior.outcome(of: second.response) == .revalidated)
        #expect(kinds.current == [.miss, .stored, .revalidated])
    }
}

private extension FixtureFolder {
    var transport: FixtureTransport { FixtureTransport(directory: url) }
}
