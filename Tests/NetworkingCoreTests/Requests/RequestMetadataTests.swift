import Foundation
import NetworkingTesting
import Testing

@testable import Networking
@testable import NetworkingHTTP
@testable import NetworkingCore
@testable import NetworkingTLS
@testable import NetworkingURLSession
@testable import NetworkingAuth
@testable import NetworkingResilience
@testable import NetworkingHTTPCache
@testable import NetworkingCookies
@testable import NetworkingObservability
@testable import NetworkingTransfers
import NetworkingTestSupport

/// Per-request metadata reaches every behavior through the context, and the log names the endpoint (issue 16).
@Suite struct RequestMetadataTests {
    enum Priority: RequestMetadataKey { typealias Value = Int }
    enum Flag: RequestMetadataKey { typealias Value = String }

    /// Records the endpoint name and priority each call's context carried.
    struct MetadataReader: RequestBehavior {
        let seen = LockedBox<[(String?, Int?)]>([])
        func beforeSend(request: HTTPRequest, context: RequestContext) async {
            seen.withLock { $0.append((context.metadata[EndpointName.self], context.metadata[Priority.self])) }
        }
    }

    @Test func valuesKeepTheirTypesAndKeysNeverCollide() {
        var metadata = RequestMetadata()
        #expect(metadata.isEmpty)
        metadata[Priority.self] = 3
        metadata[Flag.self] = "beta"
        #expect(metadata[Priority.self] == 3)
        #expect(metadata[Flag.self] == "beta")
        #expect(metadata[EndpointName.self] == nil)
        metadata[Flag.self] = nil
        #expect(metadata[Flag.self] == nil && !metadata.isEmpty)
    }

    @Test func everyBehaviorReadsTheRequestsMetadataFromTheContext() async throws {
        // Given a request naming its endpoint and a priority
        var request = NetworkRequest<Data>(path: "/users/42")
        request.endpointName = "getUser"
        request.metadata[Priority.self] = 7
        let reader = MetadataReader()
        let client = try makeClient(transport: answering(), behavior: reader)
        // When
        _ = try await client.send(request)
        _ = try await client.send(NetworkRequest<Data>(path: "/users/43"))
        // Then the behavior saw both on the first call, nothing on the second
        let seen = reader.seen.withLock { $0 }
        #expect(seen.count == 2)
        #expect(seen.first?.0 == "getUser" && seen.first?.1 == 7)
        #expect(seen.last?.0 == nil && seen.last?.1 == nil)
        #expect(request.withResponse(String.self) { _, _, _ in "" }.endpointName == "getUser")
    }

    @Test func theLogNamesTheEndpointWhenTheRequestNamesIt() async throws {
        let lines = LockedBox<[String]>([])
        var request = NetworkRequest<Data>(path: "/users/42")
        request.endpointName = "getUser"
        let client = try makeClient(
            transport: answering(), behavior: .logging(to: LogSink { line in lines.withLock { $0.append(line) } }))
        _ = try await client.send(request)
        _ = try await client.send(NetworkRequest<Data>(path: "/users/43"))
        let all = lines.withLock { $0 }
        #expect(all.count == 4)
        #expect(all[0].hasPrefix("[Networking ") && all[0].contains(" getUser] GET https://"), "\(all[0])")
        #expect(all[1].contains(" getUser] 200 GET https://"), "\(all[1])")
        #expect(!all[2].contains("getUser") && !all[3].contains("getUser"))
    }
}
