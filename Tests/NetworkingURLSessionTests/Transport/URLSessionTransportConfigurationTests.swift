import Foundation
import Networking
import Testing
import NetworkingTestSupport

@Suite struct URLSessionTransportConfigurationTests {
    @Test func nonIdempotentRequestsGetAConnectionOfTheirOwnOnlyWhereLibcurlCarriesThem() {
        let configuration = URLSessionTransport.Configuration()
        #if canImport(FoundationNetworking)
            // libcurl re-sends a POST's head without its body on a pooled connection the server just closed.
            #expect(!configuration.reusesConnectionsForNonIdempotentRequests)
        #else
            // Apple's URLSession has no such defect; a fresh connection would cost every POST a TLS handshake.
            #expect(configuration.reusesConnectionsForNonIdempotentRequests)
        #endif
        #expect(
            configuration.reusesConnectionsForNonIdempotentRequests
                == URLSessionTransport.Configuration.defaultReusesConnectionsForNonIdempotentRequests)
        #expect(configuration.serverTrust == .system)
        #expect(NetworkClient.Configuration(baseURL: nil).maximumRedirects == 10)
    }
}
