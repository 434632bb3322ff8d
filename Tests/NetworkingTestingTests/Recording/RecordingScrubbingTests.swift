import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

@Suite struct RecordingScrubbingTests {
    /// Secrets the request carries or the backend answers; none may reach a written file.
    static let secrets = [
        "bearer-secret-AAA", "cookie-secret-BBB", "apikey-secret-CCC", "query-secret-DDD", "body-secret-EEE",
        "set-cookie-secret-FFF", "user-key-secret-GGG", "user-header-secret-HHH", "proxy-secret-III",
    ]

    /// A backend that echoes every credential it gets, in headers and in the body.
    static func leakyBackend() -> MockTransport {
        MockTransport { request in
            let echoed = request.headerFields.map { "\($0.name.rawName)=\($0.value)" }.joined(separator: "; ")
            let json = """
                {"echo": "\(echoed) \(request.path)", "password": "body-secret-EEE",
                 "nested": [{"session_id": "user-key-secret-GGG", "ok": true}]}
                """
            let headers: HTTPFields = [
                .contentType: "application/json", "Set-Cookie": "session=set-cookie-secret-FFF; HttpOnly",
                "X-Echo": request.headerFields["Authorization"] ?? "", "X-Vendor-Token": "user-header-secret-HHH",
            ]
            return (HTTPResponse(status: .ok, headerFields: headers), Data(json.utf8))
        }
    }

    static func leakyRequest(path: String = "/me?api_key=query-secret-DDD&lang=en") -> HTTPRequest {
        var headers: HTTPFields = [
            "Authorization": "Bearer bearer-secret-AAA", "Cookie": "session=cookie-secret-BBB",
            "Proxy-Authorization": "Basic proxy-secret-III",
        ]
        headers[sensitive: "X-API-Key"] = "apikey-secret-CCC"
        headers[.contentType] = "application/json"
        return recordingRequest(
            .post, path, headers: headers, body: Data(#"{"password": "body-secret-EEE", "name": "Ada"}"#.utf8))
    }

    static var options: RecordingOptions {
        var options = RecordingOptions()
        options.redaction = Redaction(headerNames: ["X-Vendor-Token"])
        options.scrubbedJSONKeys = ["session_id"]
        options.matchesBody = true
        return options
    }

    @Test(arguments: [RecordingOptions.JSONStyle.pretty, .asReceived])
    func noSecretReachesAnyWrittenFile(style: RecordingOptions.JSONStyle) async throws {
        let folder = try FixtureFolder([:])
        var options = Self.options
        options.jsonStyle = style
        let recorder = RecordingTransport(
            wrapping: Self.leakyBackend(), directory: folder.url, mode: .recordAll, options: options)
        _ = try await exchange(recorder, Self.leakyRequest())

        let files = filesUnder(folder.url)
        #expect(files.count == 3)  // the answer, the stored request body, the manifest
        for (name, data) in files {
            let text = String(decoding: data, as: UTF8.self)
            for secret in Self.secrets {
                #expect(!text.contains(secret), "\(name) holds \(secret)")
            }
        }
        let manifest = String(decoding: files["fixtures.json"] ?? Data(), as: UTF8.self)
        #expect(manifest.contains(#""Set-Cookie" : "<redacted>""#))
        #expect(manifest.contains(#""X-Vendor-Token" : "<redacted>""#))
        #expect(manifest.contains("POST /me?lang=en"))
    }

    @Test func aScrubbedFolderStillReplaysTheRequestWhateverItsSecrets() async throws {
        let folder = try FixtureFolder([:])
        let recorder = RecordingTransport(
            wrapping: Self.leakyBackend(), directory: folder.url, mode: .recordAll, options: Self.options)
        _ = try await exchange(recorder, Self.leakyRequest())

        let replay = RecordingTransport(replaying: folder.url, options: Self.options)
        let (head, body) = try await exchange(replay, Self.leakyRequest(path: "/me?lang=en&api_key=another"))

        #expect(head.status == .ok)
        #expect(head.headerFields["Set-Cookie"] == "<redacted>")
        let text = String(decoding: body, as: UTF8.self)
        #expect(text.contains("<redacted>"))
        #expect(!text.contains("bearer-secret-AAA"))
    }

    @Test func aTextBodyHasTheRequestsSecretsReplaced() async throws {
        let folder = try FixtureFolder([:])
        let backend = MockTransport { request in
            let text = "you sent \(request.headerFields["Authorization"] ?? "") and \(request.path)"
            return (HTTPResponse(status: .ok, headerFields: [.contentType: "text/plain"]), Data(text.utf8))
        }
        let recorder = RecordingTransport(wrapping: backend, directory: folder.url, mode: .recordAll)
        _ = try await exchange(
            recorder,
            recordingRequest(
                .get, "/hello?token=query-secret-DDD", headers: ["Authorization": "Bearer bearer-secret-AAA"]))

        let written = String(decoding: filesUnder(folder.url)["hello.GET.txt"] ?? Data(), as: UTF8.self)
        #expect(written == "you sent <redacted> and /hello?token=<redacted>")
    }
}
