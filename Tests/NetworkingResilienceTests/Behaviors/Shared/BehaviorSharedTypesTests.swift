import Foundation
import Networking
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `BehaviorScope` and `BehaviorSettingsError`, the types the stateful behaviors share.
@Suite struct BehaviorSharedTypesTests {
    private func key(_ scope: BehaviorScope, _ url: String) -> String {
        scope.key(for: HTTPRequest(url: URL(string: url)!), context: RequestContext())
    }

    @Test(arguments: [
        ("https://API.Example.com/v1", "api.example.com:443"),
        ("http://api.example.com/v1", "api.example.com:80"),
        ("https://api.example.com:8443/v1", "api.example.com:8443"),
        ("http://127.0.0.1:8080/", "127.0.0.1:8080"),
        ("https://[::1]/", "[::1]:443"),
        ("https://[::1]:9000/", "[::1]:9000"),
    ])
    func hostScopeNamesOriginHostAndPort(url: String, expected: String) {
        #expect(key(.host, url) == expected)
    }

    @Test func clientScopeSharesOneKeyAndCustomScopeUsesTheFunction() {
        #expect(key(.client, "https://a.test/") == key(.client, "https://b.test/x"))
        let byPath = BehaviorScope.custom { request, _ in request.path }
        #expect(key(byPath, "https://a.test/one") == "/one")
        #expect(key(byPath, "https://b.test/two") == "/two")
    }

    @Test func settingsErrorNamesSettingValueAndRule() {
        let error = BehaviorSettingsError(
            settings: "ConcurrencyLimitSettings", setting: "maximumInFlight", value: "0",
            requirement: "it must be at least 1")
        #expect("\(error)" == "ConcurrencyLimitSettings.maximumInFlight is 0; it must be at least 1")
    }
}
