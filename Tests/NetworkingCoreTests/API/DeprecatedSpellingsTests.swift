import Foundation
import Networking
import NetworkingTesting
import Testing

/// Code written against the spellings before 1.0 still compiles and means the same: each deprecated name is an
/// alias of the new one. (The test is deprecated itself, so using them here warns about nothing.)
@Suite struct DeprecatedSpellingsTests {
    @available(*, deprecated, message: "uses the spellings before 1.0 on purpose")
    @Test func theSpellingsBefore1_0StillCompileAndMeanTheSame() throws {
        let retry = RetryBehavior(policy: RetryPolicy(maximumAttempts: 2))
        #expect(retry.policy == retry.settings && retry.settings.maximumAttempts == 2)
        let counter = ActivityCounterBehavior(state: InMemoryActivityCounterState())
        #expect(counter.state.count == counter.store.count)
        let factory: ActivityCounterBehavior = .activityCounter(state: InMemoryActivityCounterState())
        #expect(factory.store.count == 0)
        var configuration = TokenRefreshBehavior.Configuration()
        configuration.maximumRefreshes = 5
        let refresh = TokenRefreshBehavior(
            initial: nil, refresher: ClosureTokenRefresher { _ in AccessCredential(token: "t") },
            configuration: configuration)
        #expect(refresh.configuration == refresh.settings && refresh.settings.maximumRefreshes == 5)
        #expect(LoggingBehavior(eachAttempt: true).eachAttempt)
        #expect(CURLRenderer.self == CurlRenderer.self)
        let log = EventLog()
        _ = RecordingBehavior("a", log: log)
        #expect(log.events.isEmpty)
        #expect(try DefaultTransport.transport(.urlSession) is URLSessionTransport)
    }

    /// New in 1.0: a credential is `Codable`, so an app keeps it between launches.
    @Test func anAccessCredentialSurvivesTheKeychain() throws {
        let credential = AccessCredential(token: "t0k", expiresAt: Date(timeIntervalSince1970: 1_800_000_000))
        let stored = try JSONEncoder().encode(credential)
        #expect(try JSONDecoder().decode(AccessCredential.self, from: stored) == credential)
    }
}
