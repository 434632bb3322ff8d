import Foundation
import Networking
import NetworkingTesting
import Testing

/// The configuration on the platform's default transport repeats the core initializer's parameters and their
/// defaults (the core cannot name a transport); this keeps the two from drifting apart.
@Suite struct ConfigurationDefaultsTests {
    @Test func theDefaultTransportsConfigurationHasTheCoresDefaults() {
        let onDefault = NetworkClient.Configuration(baseURL: nil)
        let onAny = NetworkClient.Configuration(baseURL: nil, transport: MockTransport())
        #expect(onDefault.acceptableStatusCodes == onAny.acceptableStatusCodes)
        #expect(onDefault.timeout == onAny.timeout)
        #expect(onDefault.deadline == onAny.deadline)
        #expect(onDefault.sensitiveHeaderNames == onAny.sensitiveHeaderNames)
        #expect(onDefault.maximumResponseBodySize == onAny.maximumResponseBodySize)
        #expect(onDefault.maximumRedirects == onAny.maximumRedirects)
        #expect(onDefault.followsRedirects == onAny.followsRedirects)
        #expect(onDefault.behavior is EmptyBehavior && onAny.behavior is EmptyBehavior)
        #expect(onDefault.clock is SystemClock && onAny.clock is SystemClock)
    }
}
