import Foundation
import NetworkingCurl
import Testing

/// The NetworkingCurl product alone brings the trust settings its configuration takes (`ServerTrust`, from
/// NetworkingTLS) and the HTTP model: this file imports nothing else of the package.
@Suite struct CurlProductImportTests {
    @Test func aCurlConfigurationNamesServerTrustWithoutImportingItsModule() {
        let configuration = CurlTransport.Configuration(serverTrust: ServerTrust(trustsSystemAuthorities: true))
        #expect(configuration.serverTrust == ServerTrust.system)
        #expect(HTTPRequest(url: URL(string: "https://a.test/x")!).path == "/x")
    }
}
