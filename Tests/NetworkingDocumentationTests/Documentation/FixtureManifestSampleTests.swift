import Foundation
import Networking
import NetworkingTestSupport
import NetworkingTesting
import Testing

/// The complete `fixtures.json` of TestingYourAPILayer.md, read from the article itself into a folder with the files
/// it names: it loads, and each route answers as the article's list says.
@Suite struct FixtureManifestSampleTests {
    static func manifest() throws -> String {
        let text = try String(
            contentsOf: DocumentSamples.root.appendingPathComponent(
                "Sources/Networking/Networking.docc/TestingYourAPILayer.md"),
            encoding: .utf8)
        return try #require(
            text.components(separatedBy: "```json\n").dropFirst().first?.components(separatedBy: "\n```").first)
    }

    static func folder(manifest: String) throws -> FixtureFolder {
        try FixtureFolder([
            "fixtures.json": manifest,
            "profiles/42.GET.json": #"{"id": 42, "name": "Ada"}"#,
            "avatar.png": "PNG bytes",
            "search/ada.json": #"[{"id": 42, "name": "Ada"}]"#,
            "feed.GET.json": #"["first post"]"#,
        ])
    }

    private func answer(_ transport: FixtureTransport, _ method: HTTPMethod, _ path: String) async throws -> (
        HTTPResponse, String
    ) {
        let (head, body) = try await transport.send(
            HTTPRequest(method: method, url: URL(string: "https://api.example.com/v1\(path)")!))
        return (head, String(decoding: try await body.collect(upTo: 1 << 20), as: UTF8.self))
    }

    @Test func theArticlesManifestLoadsAndEachRouteAnswersAsDescribed() async throws {
        let folder = try Self.folder(manifest: try Self.manifest())
        let clock = TestClock()
        let transport = FixtureTransport(directory: folder.url, basePath: "/v1", clock: clock)
        try transport.validate()

        let (profile, profileBody) = try await answer(transport, .get, "/profiles/42")
        #expect(profile.status.code == 200 && profileBody.contains("Ada"))
        #expect(profile.headerFields["Cache-Control"] == "max-age=60")
        #expect(profile.headerFields["Content-Type"] == "application/json")

        let (missing, missingBody) = try await answer(transport, .get, "/profiles/7")
        #expect(missing.status.code == 404 && missingBody == #"{"error":"no such profile"}"#)

        let (avatar, avatarBody) = try await answer(transport, .get, "/profiles/99/avatar")
        #expect(avatar.headerFields["Content-Type"] == "image/png" && avatarBody == "PNG bytes")

        let (search, searchBody) = try await answer(transport, .get, "/search?page=2&name=ada")
        #expect(search.status.code == 200 && searchBody.contains("Ada"))
        #expect(clock.sleeps == [.milliseconds(500)])  // the route's delay, on the transport's clock

        let (created, createdBody) = try await answer(transport, .post, "/profiles")
        #expect(created.status.code == 201 && createdBody == #"{"id":43,"name":"Grace"}"#)

        let (deleted, deletedBody) = try await answer(transport, .delete, "/profiles/42")
        #expect(deleted.status.code == 204 && deletedBody.isEmpty)

        var feed: [Int] = []
        for _ in 0..<3 { feed.append(try await answer(transport, .get, "/feed").0.status.code) }
        #expect(feed == [503, 200, 200])  // the sequence, its last answer repeating
    }

    @Test func aTypoInTheManifestIsAnErrorNamingTheEntry() throws {
        let typo = try Self.manifest().replacingOccurrences(of: #""status": 404"#, with: #""staus": 404"#)
        let folder = try Self.folder(manifest: typo)
        let error = try expectError(FixtureError.self) {
            try FixtureTransport(directory: folder.url, basePath: "/v1").validate()
        }
        #expect(error?.kind == .invalidManifest)
        #expect(error?.description.contains(#"routes["GET /profiles/7"] has an unknown field "staus""#) == true)
    }
}
