import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct FixtureTransportTests {
    @Test(arguments: [
        (HTTPMethod.get, "/countries", "countries.GET.json"),
        (.get, "/countries/fr", "countries/fr.GET.json"),
        (.post, "/countries/fr/visits/", "countries/fr/visits.POST.json"),
        (.get, "/", "index.GET.json"),
        (.delete, "/countries/fr?force=1", "countries/fr.DELETE.json"),
    ])
    func fileNameFollowsMethodAndPath(method: HTTPMethod, path: String, file: String) {
        #expect(FixtureTransport.fileName(method: method, path: path) == file)
    }

    @Test func servesTheFileNamedAfterMethodAndPath() async throws {
        // Given
        let folder = try FixtureFolder(["users/1.GET.json": #"{"id": 1, "name": "Ada"}"#])

        // When
        let response = try await folder.client().response(for: NetworkRequest<User>(path: "/users/1"))

        // Then
        #expect(response.value == User(id: 1, name: "Ada"))
        #expect(response.response.status.code == 200)
        #expect(response.response.headerFields["Content-Type"] == "application/json")
        #expect(response.response.headerFields["X-Fixture-File"] == "users/1.GET.json")
    }

    @Test func missingFixtureNamesTheFileItLookedFor() async throws {
        let folder = try FixtureFolder(["users/1.GET.json": "{}"])

        let error = try await expectNetworkError {
            try await folder.client().send(NetworkRequest<User>(path: "/users/2"))
        }

        let fixtureError = try #require(error?.underlyingError as? FixtureError)
        #expect(error?.kind == .transport(.other))
        #expect(error?.requestName == "GET /users/2")
        #expect(fixtureError.kind == .missingFixture)
        #expect(fixtureError.file == "users/2.GET.json")
        #expect(
            fixtureError.description == "no fixture for GET /users/2: looked for users/2.GET.json in \(folder.url.path)"
        )
    }

    @Test func sequenceFromTheManifestPlaysInOrderAndRepeatsItsLastAnswer() async throws {
        // Given
        let folder = try FixtureFolder([
            "users/1.GET.json": #"{"id": 1, "name": "Ada"}"#,
            "fixtures.json": """
            { "routes": { "GET /users/1": { "sequence": [
                { "status": 503, "headers": { "Retry-After": "1" }, "body": { "error": "warming up" } },
                { }
            ] } } }
            """,
        ])
        let client = try folder.client()

        // When
        let first = try await expectNetworkError { try await client.send(NetworkRequest<User>(path: "/users/1")) }
        let second = try await client.send(NetworkRequest<User>(path: "/users/1"))
        let third = try await client.send(NetworkRequest<User>(path: "/users/1"))

        // Then
        #expect(first?.kind == .unacceptableStatus(503))
        #expect(first?.response?.headerFields["Retry-After"] == "1")
        #expect(first?.bodySnippet() == #"{"error":"warming up"}"#)
        #expect([second, third] == [User(id: 1, name: "Ada"), User(id: 1, name: "Ada")])
    }

    @Test func queryInTheManifestSelectsAVariant() async throws {
        let folder = try FixtureFolder([
            "search.GET.json": "[]",
            "search/japan.json": #"[{"id": 81, "name": "Japan"}]"#,
            "fixtures.json": #"{ "routes": { "GET /search?name=japan": { "file": "search/japan.json" } } }"#,
        ])
        let client = try folder.client()

        let japan = try await client.send(
            NetworkRequest<[User]>(path: "/search", query: [URLQueryItem(name: "name", value: "japan")]))
        let other = try await client.send(
            NetworkRequest<[User]>(path: "/search", query: [URLQueryItem(name: "name", value: "peru")]))

        #expect(japan == [User(id: 81, name: "Japan")])
        #expect(other.isEmpty)
    }

    @Test func statusHeadersAndDelayComeFromTheManifest() async throws {
        // Given
        let clock = TestClock(mode: .manual)
        let folder = try FixtureFolder([
            "fixtures.json": """
            { "routes": { "DELETE /users/*": { "status": 204, "headers": { "X-Deleted": "yes" }, "delay": 0.25 } } }
            """
        ])
        let client = try folder.client(clock: clock)

        // When
        let call = Task { try await client.response(for: NetworkRequest<Void>(.delete, path: "/users/9")) }
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(250))
        let response = try await call.value

        // Then
        #expect(response.response.status.code == 204)
        #expect(response.response.headerFields["X-Deleted"] == "yes")
        #expect(response.body.isEmpty)
        #expect(clock.sleeps == [.milliseconds(250)])
    }

    @Test(arguments: [("0", Duration.zero), ("1", .seconds(1)), ("1.0", .seconds(1)), ("2", .seconds(2))])
    func aWholeNumberOfSecondsIsADelayZeroAndOneIncluded(json: String, waited: Duration) async throws {
        // JSON's 0 and 1 are not booleans here: only `true` and `false` are refused.
        let clock = TestClock()
        let folder = try FixtureFolder([
            "fixtures.json": #"{ "routes": { "GET /ping": { "status": 204, "delay": \#(json) } } }"#
        ])
        let response = try await folder.client(clock: clock).response(for: NetworkRequest<Void>(path: "/ping"))
        #expect(response.response.status.code == 204)
        #expect(clock.sleeps == (waited == .zero ? [] : [waited]) || clock.sleeps == [waited])
    }

    @Test func aBooleanDelayOrStatusIsRefused() async throws {
        for route in [#""delay": true"#, #""status": true"#] {
            let folder = try FixtureFolder(["fixtures.json": #"{ "routes": { "GET /ping": { \#(route) } } }"#])
            let error = try await expectNetworkError {
                try await folder.client().send(NetworkRequest<Data>(path: "/ping"))
            }
            #expect(error?.underlyingError is FixtureError, "\(route)")
        }
    }

    @Test func badJSONInAFixtureNamesTheFileAndThePlace() async throws {
        let folder = try FixtureFolder(["users/1.GET.json": "{\n  \"id\": 1,\n  \"name\": Ada\n}"])

        let error = try await expectNetworkError {
            try await folder.client().send(NetworkRequest<User>(path: "/users/1"))
        }

        let fixtureError = try #require(error?.underlyingError as? FixtureError)
        #expect(fixtureError.kind == .invalidFixture)
        #expect(fixtureError.file == "users/1.GET.json")
        #expect(fixtureError.description.hasPrefix("the fixture users/1.GET.json for GET /users/1 is not valid: "))
        #expect(fixtureError.reason.contains("line 3"))
    }

    @Test(arguments: [
        ("{ \"routes\": { \"GET /a\": { \"status\": 200 } ", "invalid JSON"),
        (#"{ "routes": { "GET /a": { "stauts": 200 } } }"#, #"routes["GET /a"] has an unknown field "stauts""#),
        (#"{ "routes": { "GET /a": { "status": "200" } } }"#, #"routes["GET /a"].status must be an integer"#),
        (#"{ "routes": { "/a": { } } }"#, #"the route "/a" must read "METHOD /path""#),
        (#"{ "routes": { "GET /a": { "sequence": [] } } }"#, "sequence must be a non-empty array"),
        (#"{ "rutes": { } }"#, #"unknown top-level key "rutes""#),
        // Found by make fuzz: a delay past Int64 milliseconds trapped the process instead of refusing the manifest.
        (#"{ "routes": { "GET /a": { "delay": 1.1e32 } } }"#, "delay must be a number of seconds, from 0 to 86400"),
        (#"{ "routes": { "GET /a": { "delay": 86401 } } }"#, "delay must be a number of seconds, from 0 to 86400"),
    ])
    func badManifestNamesTheManifestAndTheProblem(manifest: String, problem: String) async throws {
        let folder = try FixtureFolder(["fixtures.json": manifest, "a.GET.json": "{}"])

        let error = try await expectNetworkError { try await folder.client().send(NetworkRequest<Void>(path: "/a")) }

        let fixtureError = try #require(error?.underlyingError as? FixtureError)
        #expect(fixtureError.kind == .invalidManifest)
        #expect(fixtureError.file == "fixtures.json")
        #expect(fixtureError.reason.contains(problem), "\(fixtureError.reason)")
        #expect(throws: FixtureError.self) { try FixtureTransport(directory: folder.url).validate() }
    }

    @Test func validateFindsAFileTheManifestNamesButTheFolderLacks() throws {
        let folder = try FixtureFolder([
            "fixtures.json": #"{ "routes": { "GET /a": { "file": "gone.json" }, "GET /b": { "status": 404 } } }"#
        ])

        let error = try expectError(FixtureError.self) { try FixtureTransport(directory: folder.url).validate() }

        #expect(error?.kind == .missingFixture)
        #expect(error?.file == "gone.json")
    }

    @Test(arguments: ["/v1/%2E%2E/secret", "/v1/a/..%2Fsecret", "/elsewhere/a"])
    func pathsThatCouldLeaveTheFolderAreRefused(path: String) async throws {
        let folder = try FixtureFolder(["a.GET.json": "{}"])
        let transport = FixtureTransport(directory: folder.url, basePath: "/v1")
        let request = HTTPRequest(url: URL(string: "https://fixtures.test\(path)")!)

        let error = try await expectError(FixtureError.self) { try await transport.send(request) }

        #expect(error?.kind == .unsafePath)
    }
}

private extension FixtureFolder {
    func client(clock: any NetworkClock = SystemClock()) throws -> NetworkClient {
        try makeClient(transport: FixtureTransport(directory: url, basePath: "/v1", clock: clock))
    }
}
