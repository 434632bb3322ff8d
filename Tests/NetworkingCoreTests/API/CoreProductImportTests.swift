import Foundation
import NetworkingCore
import Testing

/// A transport written on the NetworkingCore product alone: this file imports NetworkingCore and nothing of the
/// package besides, yet names the HTTP model (`HTTPRequest`, `HTTPFields`, `HTTPBody`), which the product brings.
@Suite struct CoreProductImportTests {
    struct EchoTransport: HTTPTransport {
        func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
            let fields: HTTPFields = ["X-Echo": request.path]
            return (HTTPResponse(status: 200, headerFields: fields, url: request.url), .data(Data()))
        }
    }

    @Test func aTransportOnTheCoreProductNamesTheHTTPModelWithoutImportingIt() async throws {
        let client = NetworkClient(baseURL: URL(string: "https://api.example.test/v1")!, transport: EchoTransport())
        let response = try await client.response(for: NetworkRequest<Data>(path: "/items"))
        #expect(response.response.headerFields["X-Echo"] == "/v1/items")
    }
}
