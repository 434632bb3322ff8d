import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

/// The logging behavior at its default placement (observation) runs outside the behaviors that add credentials and
/// cookies, so it never sees them on the request it is handed; a server that echoes them must still not put them in
/// a line. Each test sends through a whole client whose transport echoes every header value of the request it
/// receives into its body, and checks that no line holds the secret, on a 500 and on a 200.
@Suite struct LoggingSentSecretsTests {
    /// Answers `/login` with a cookie; anything else with the status in its `status` query value (200 or 500) and a
    /// body echoing every header field it was sent: `denied for Authorization: Bearer …; Cookie: …`.
    struct EchoTransport: HTTPTransport {
        static let cookieValue = "sid-C00KIE-5ECRET-42"

        func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
            if request.path.hasPrefix("/v1/login") {
                let fields: HTTPFields = ["Set-Cookie": "sid=\(Self.cookieValue); Path=/"]
                return (HTTPResponse(status: 200, headerFields: fields, url: request.url), .data(Data()))
            }
            let echoed = request.headerFields.map { "\($0.name.rawName): \($0.value)" }.joined(separator: "; ")
            let status = request.path.contains("status=500") ? 500 : 200
            return (
                HTTPResponse(
                    status: .init(code: status), headerFields: ["Content-Type": "text/plain"], url: request.url),
                .data(Data("denied for \(echoed)".utf8))
            )
        }
    }

    static let token = "tok-AAAA1111-BBBB2222"
    static let deviceSecret = "device-5ECRET-9876"

    /// The ways a secret reaches the request inside the logging behavior.
    enum Source: String, CaseIterable, Sendable {
        case clientWideAuthorization, perRequestAuthorization, tokenRefresh, sensitiveModifier, cookie
    }

    func run(_ source: Source, status: Int) async throws -> (lines: [String], secret: String) {
        let sink = RecordingSink()
        let logging: LoggingBehavior = .logging(to: sink.sink, headers: true, bodies: .upTo(4096))
        let jar = InMemoryCookieJar()
        var clientWide: [any RequestBehavior] = [logging]
        var perRequest: any RequestBehavior = EmptyBehavior()
        var secret = Self.token
        switch source {
        case .clientWideAuthorization:
            clientWide.append(.authorization(.bearer) { Self.token })
        case .perRequestAuthorization:
            perRequest = .authorization(.bearer) { Self.token }
        case .tokenRefresh:
            clientWide.append(
                .tokenRefresh(initial: AccessCredential(token: Self.token)) { _ in
                    AccessCredential(token: "never-used-refresh")
                })
        case .sensitiveModifier:
            secret = Self.deviceSecret
            clientWide.append(
                .modifyRequest { request in request.headerFields[sensitive: "X-Device-Secret"] = Self.deviceSecret })
        case .cookie:
            secret = EchoTransport.cookieValue
            clientWide.append(.cookies(jar: jar))
        }
        let client = NetworkClient(
            configuration: .init(
                baseURL: URL(string: "https://api.example.test/v1")!, transport: EchoTransport(),
                behavior: CombinedBehavior(clientWide)))
        if source == .cookie {
            _ = try await client.send(NetworkRequest<Data>(path: "/login"))
            sink.clear()
        }
        let request = NetworkRequest<Data>(path: "/me", query: [URLQueryItem(name: "status", value: "\(status)")])
        _ = try? await client.send(request, behavior: perRequest)
        return (sink.lines, secret)
    }

    @Test(arguments: Source.allCases, [500, 200])
    func aSecretAddedInsideTheLoggingBehaviorAndEchoedIsRedacted(source: Source, status: Int) async throws {
        let (lines, secret) = try await run(source, status: status)
        // The start line and the end line, the end line showing the echoed body with the secret hidden.
        #expect(lines.count == 2, "\(lines)")
        let end = try #require(lines.last)
        #expect(end.contains("denied for"), "\(end)")
        #expect(end.contains(Redaction.placeholder), "\(end)")
        for line in lines {
            #expect(!line.contains(secret), "the secret leaked: \(line)")
        }
    }
}
