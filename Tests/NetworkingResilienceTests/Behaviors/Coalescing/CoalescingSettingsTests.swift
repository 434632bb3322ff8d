import Foundation
import Networking
import Testing
import NetworkingTestSupport

@Suite struct CoalescingSettingsTests {
    @Test func defaultIgnoresTraceAndCorrelationHeadersOnly() throws {
        #expect(
            CoalescingSettings.default.ignoredHeaderNames == [
                "traceparent", "tracestate", "x-request-id", "x-correlation-id",
            ])
        #expect(try CoalescingSettings() == .default)
    }

    @Test func namesAreLowerCased() throws {
        #expect(
            try CoalescingSettings(ignoredHeaderNames: ["X-Debug-Session"]).ignoredHeaderNames == ["x-debug-session"])
    }

    @Test(arguments: ["Authorization", "cookie", "Proxy-Authorization"])
    func credentialHeadersCannotBeIgnored(_ name: String) {
        #expect {
            _ = try CoalescingSettings(ignoredHeaderNames: [name])
        } throws: { error in
            let error = error as? BehaviorSettingsError
            return error?.settings == "CoalescingSettings" && error?.setting == "ignoredHeaderNames"
                && error?.value == name
        }
    }

    @Test(arguments: ["", "X Debug", "X-Debug\r\n", "a:b"])
    func namesThatAreNotTokensAreRefused(_ name: String) {
        #expect(throws: BehaviorSettingsError.self) { _ = try CoalescingSettings(ignoredHeaderNames: [name]) }
    }
}
