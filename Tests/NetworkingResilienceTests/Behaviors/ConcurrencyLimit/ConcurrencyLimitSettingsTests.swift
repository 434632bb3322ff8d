import Foundation
import Networking
import Testing
import NetworkingTestSupport

/// Construction-time checks and the documented defaults of `ConcurrencyLimitSettings`.
@Suite struct ConcurrencyLimitSettingsTests {
    @Test func zeroInFlightIsRejectedWithTheDocumentedMessage() throws {
        let error = try expectError(BehaviorSettingsError.self) { try ConcurrencyLimitSettings(maximumInFlight: 0) }
        #expect(error.map { "\($0)" } == "ConcurrencyLimitSettings.maximumInFlight is 0; it must be at least 1")
        #expect(error?.setting == "maximumInFlight")
    }

    @Test(arguments: [
        (-1, 10, "ConcurrencyLimitSettings.maximumInFlight is -1; it must be at least 1"),
        (Int.min, 10, "ConcurrencyLimitSettings.maximumInFlight is \(Int.min); it must be at least 1"),
        (4, -1, "ConcurrencyLimitSettings.maximumQueueLength is -1; it must be at least 0"),
    ])
    func badValuesAreRejectedNamingTheSetting(inFlight: Int, queue: Int, message: String) throws {
        let error = try expectError(BehaviorSettingsError.self) {
            try ConcurrencyLimitSettings(maximumInFlight: inFlight, maximumQueueLength: queue)
        }
        #expect(error.map { "\($0)" } == message)
    }

    @Test func defaultsAreSixInFlightAHundredWaitingForTheWholeClient() throws {
        let settings = ConcurrencyLimitSettings.default
        #expect(settings.maximumInFlight == 6)
        #expect(settings.maximumQueueLength == 100)
        let built = try ConcurrencyLimitSettings()
        #expect(built.maximumInFlight == 6 && built.maximumQueueLength == 100)
        let context = RequestContext()
        let a = HTTPRequest(url: URL(string: "https://a.test/")!)
        let b = HTTPRequest(url: URL(string: "https://b.test/")!)
        #expect(settings.scope.key(for: a, context: context) == settings.scope.key(for: b, context: context))
    }

    @Test func aQueueOfZeroIsAllowed() throws {
        #expect(try ConcurrencyLimitSettings(maximumInFlight: 1, maximumQueueLength: 0).maximumQueueLength == 0)
    }
}
