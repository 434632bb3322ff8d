import Foundation
import Networking
import NetworkingTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Multipart forms sent through a client on a mock, for what the mock recorded.
package enum MultipartRecording {
    /// Sends `form` through a client on a mock and returns what the mock recorded, or the client's error.
    package static func send(_ form: MultipartFormData) async throws -> (RecordedRequest?, NetworkError?) {
        let transport = MockTransport().stub(.post, "/uploads", .json("{}"))
        let client = NetworkClient(baseURL: URL(string: "https://api.example.com")!, transport: transport)
        do {
            _ = try await client.send(NetworkRequest<EmptyResponse>(.post, path: "/uploads", body: .multipart(form)))
            return (transport.requests(to: .post, "/uploads").first, nil)
        } catch let error as NetworkError {
            return (transport.requests(to: .post, "/uploads").first, error)
        }
    }
}
