import Foundation
import Networking
import Testing
import NetworkingTestSupport

/// `RateLimitSettings`: documented defaults, and bad values rejected naming the setting.
@Suite struct RateLimitSettingsTests {
    @Test func defaultsAreThoseDocumented() {
        let settings = RateLimitSettings.default
        #expect(settings.capacity == 20)
        #expect(settings.tokensPerSecond == 10)
        #expect(settings.maximumWait == .seconds(5))
        #expect(settings.maximumPause == .seconds(60))
        #expect(RateLimitBehavior.rateLimit().settings == settings)
        #expect(
            RateLimitBehavior.rateLimit().scope.key(for: BehaviorFakes.request, context: .init())
                == "api.example.test:443")
    }

    static let badSettings: [(String, @Sendable () throws -> RateLimitSettings)] = [
        ("RateLimitSettings.capacity is 0; it must be at least 1", { try RateLimitSettings(capacity: 0) }),
        ("RateLimitSettings.capacity is -1; it must be at least 1", { try RateLimitSettings(capacity: -1) }),
        (
            "RateLimitSettings.tokensPerSecond is 0.0; it must be more than 0 and finite",
            { try RateLimitSettings(tokensPerSecond: 0) }
        ),
        (
            "RateLimitSettings.tokensPerSecond is -2.0; it must be more than 0 and finite",
            { try RateLimitSettings(tokensPerSecond: -2) }
        ),
        (
            "RateLimitSettings.tokensPerSecond is nan; it must be more than 0 and finite",
            { try RateLimitSettings(tokensPerSecond: .nan) }
        ),
        (
            "RateLimitSettings.tokensPerSecond is inf; it must be more than 0 and finite",
            { try RateLimitSettings(tokensPerSecond: .infinity) }
        ),
        (
            "RateLimitSettings.maximumWait is -1.0 seconds; it must be at least 0.0 seconds",
            { try RateLimitSettings(maximumWait: .seconds(-1)) }
        ),
        (
            "RateLimitSettings.maximumPause is 0.0 seconds; it must be more than 0.0 seconds",
            { try RateLimitSettings(maximumPause: .zero) }
        ),
    ]

    @Test(arguments: badSettings.indices)
    func badValuesAreRejectedNamingTheSetting(index: Int) throws {
        let (message, make) = Self.badSettings[index]
        let error = try expectError(BehaviorSettingsError.self) { try make() }
        #expect(error?.description == message)
    }

    @Test func aMaximumWaitOfZeroNeverWaits() throws {
        #expect(try RateLimitSettings(maximumWait: .zero).maximumWait == .zero)
    }
}
