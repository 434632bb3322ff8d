import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RealServerTests {
    /// Error texts never leak the secrets of the request that was sent (issue 10.2): the fault server's `/echo`
    /// answers 500 with a body that repeats every header and the query back.
    @Suite struct FaultErrorTextTests {
        /// Every text a caller may print.
        static func texts(of error: NetworkError) -> [String] {
            [
                error.description, "\(error)", String(describing: error), String(reflecting: error),
                error.localizedDescription, (error as any Error).localizedDescription, error.bodySnippet(limit: 4096),
            ]
        }

        @Test func noErrorTextContainsACredentialTheServerEchoed() async throws {
            let key = FaultServer.newKey("echoed-secrets")
            let client = NetworkClient(
                configuration: .init(
                    baseURL: try await FaultServer.url(), transport: TestTransport.make(),
                    behavior: CombinedBehavior([
                        .authorization(.bearer) { "s3cret-token" },
                        .authorization(.custom(header: "X-API-Key")) { "api-k3y-value" },
                    ]),
                    timeout: .seconds(30), sensitiveHeaderNames: ["X-Session"]))
            let error = try #require(
                try await expectNetworkError {
                    try await client.send(
                        NetworkRequest<Data>(
                            path: "/echo",
                            query: Faults.query(key, ["status": "500", "token": "query-t0ken-value"]),
                            headers: ["Cookie": "sid=c00kie-value", "X-Session": "sess10n-value"]))
                })
            #expect(error.kind == .unacceptableStatus(500))
            let body = String(decoding: try #require(error.body), as: UTF8.self)
            let secrets = ["s3cret-token", "api-k3y-value", "query-t0ken-value", "c00kie-value", "sess10n-value"]
            for secret in secrets {
                #expect(body.contains(secret), "the server did echo \(secret): the stored body is left as it came")
                for text in Self.texts(of: error) {
                    #expect(!text.contains(secret), "\(secret) leaked in: \(text)")
                }
            }
            #expect(error.description.contains("<redacted>"))
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func aTransportErrorNamesTheRequestWithoutItsSecrets() async throws {
            // Port 1 refuses: the error is built from the request alone.
            let client = NetworkClient(
                configuration: .init(
                    baseURL: URL(string: "http://127.0.0.1:1")!, transport: TestTransport.make(),
                    behavior: .authorization(.bearer) { "s3cret-token" }))
            let error = try #require(
                try await expectNetworkError {
                    try await client.send(
                        NetworkRequest<Data>(
                            path: "/x", query: [URLQueryItem(name: "access_token", value: "t0ken-in-query")]))
                })
            #expect(error.kind == .transport(.cannotConnect))  // every engine: a refused port (-1004 on Apple's)
            #expect(error.sentRequest?.headerFields[.authorization] == "Bearer s3cret-token")
            for text in Self.texts(of: error) {
                #expect(!text.contains("s3cret-token") && !text.contains("t0ken-in-query"), "\(text)")
            }
        }
    }
}
