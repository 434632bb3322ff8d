import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Behaviors whose effects multiply or hide each other are refused when the client is built, not at request time;
/// a per-request behavior of an exclusive placement takes the client-wide one's place for its call.
@Suite struct BehaviorConflictTests {
    /// One pair per exclusive placement, each given twice client-wide.
    static let duplicates: [(placement: BehaviorPlacement, pair: @Sendable () -> [any RequestBehavior])] = [
        (.retry, { [.retry(clock: TestClock()), .retry(clock: TestClock())] }),
        (.hedging, { [.hedging(clock: TestClock()), .hedging(clock: TestClock())] }),
        (.circuitBreaker, { [.circuitBreaker(clock: TestClock()), .circuitBreaker(clock: TestClock())] }),
        (.cache, { [.httpCache(), .httpCache(mode: .shared)] }),
        (.coalescing, { [.coalescing(), .coalescing()] }),
    ]

    @Test(arguments: duplicates.indices)
    func twoBehaviorsOfOneExclusivePlacementAreRefusedWhenTheClientIsBuilt(index: Int) throws {
        let (placement, pair) = Self.duplicates[index]
        let transport = answering()
        let error = try expectError(BehaviorConflictError.self) {
            try makeClient(transport: transport, behavior: CombinedBehavior(pair()))
        }
        guard case .duplicate(let found, let names)? = error?.reason else {
            Issue.record("expected a duplicate, got \(String(describing: error))")
            return
        }
        #expect(found == placement)
        #expect(names.count == 2)
        #expect(error?.description.contains("keep one") == true)
        #expect(transport.requestCount == 0)
    }

    @Test func nestedCombinationsAreSearchedForDuplicates() throws {
        let error = try expectError(BehaviorConflictError.self) {
            try makeClient(
                transport: answering(),
                behavior: CombinedBehavior([
                    .retry(clock: TestClock()), CombinedBehavior([.logging(to: .discard), .retry(clock: TestClock())]),
                ]))
        }
        #expect(error?.reason == .duplicate(.retry, ["RetryBehavior", "RetryBehavior"]))
    }

    /// The form apps write: a shared client in a `static let`, no `try`, with the default transport or one given.
    enum SharedClients {
        static let onTheDefaultTransport = NetworkClient(
            baseURL: URL(string: "https://api.example.test/v1")!,
            behavior: CombinedBehavior([.logging(to: .discard), .retry()]))
        static let onATransport = NetworkClient(
            baseURL: URL(string: "https://api.example.test/v1")!, transport: answering(),
            behavior: CombinedBehavior([.logging(to: .discard), .retry()]))
    }

    @Test func aSharedClientIsAStaticLetWithoutTry() async throws {
        #expect(SharedClients.onTheDefaultTransport.configuration.baseURL?.host == "api.example.test")
        try await SharedClients.onATransport.send(NetworkRequest<Void>(path: "/x"))
    }

    @Test func aConflictAssembledAtRunTimeIsThrownByTheValidatingInitializer() throws {
        let chosen: [any RequestBehavior] = [.retry(clock: TestClock()), .retry(clock: TestClock())]
        let error = try expectError(BehaviorConflictError.self) {
            try NetworkClient(
                validating: .init(baseURL: nil, transport: answering(), behavior: CombinedBehavior(chosen)))
        }
        #expect(error?.reason == .duplicate(.retry, ["RetryBehavior", "RetryBehavior"]))
        #expect(error?.localizedDescription.contains("keep one") == true)
    }

    // Exit tests: Swift Testing 6.2 and later, on the platforms that can start a process (not iOS, tvOS, watchOS or
    // visionOS, where they are unavailable).
    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
        /// Written in code, a conflict is a programmer error: building the client stops the program there, with the
        /// conflict's message, as the standard library stops on an index out of range. The trap names the line that
        /// built the client, not the library's own line (`NetworkClient.swift:48`), whichever initializer built it:
        /// only the backtrace showed the app's line.
        @Test func aConflictWrittenInCodeStopsTheProgramAtTheLineThatBuiltTheClient() async throws {
            let results = [
                await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    ConflictWrittenInCode.configuration()
                },
                await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    ConflictWrittenInCode.transport()
                },
                await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    ConflictWrittenInCode.defaultTransport()
                },
            ]
            let reasons = [
                "two behaviors of the retry placement (RetryBehavior, RetryBehavior); keep one",
                "two behaviors of the retry placement (RetryBehavior, RetryBehavior); keep one",
                "is in the client-wide behavior, where it does nothing",
            ]
            for ((result, line), reason) in zip(zip(results, ConflictWrittenInCode.lines), reasons) {
                let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
                #expect(
                    message.contains("NetworkingCoreTests/BehaviorConflictTests.swift:\(line): Fatal error:"),
                    "\(message)")
                #expect(message.contains(reason), "\(message)")
                #expect(!message.contains("NetworkClient.swift"), "\(message)")
            }
        }
    #endif

    @Test func behaviorsOfOneNonExclusivePlacementCombineFreely() async throws {
        let transport = answering()
        let client = try makeClient(
            transport: transport,
            behavior: CombinedBehavior([.logging(to: .discard), .logging(to: .discard), .activityCounter()]))
        try await client.send(NetworkRequest<Void>(path: "/x"))
        #expect(transport.requestCount == 1)
    }

    @Test func aPerRequestRetryTakesTheClientWideRetrysPlace() async throws {
        // Given a client-wide retry of 3 attempts and a per-request one of 2, on a server that always fails
        let transport = answering(503)
        let client = try makeClient(
            transport: transport,
            behavior: .retry(RetrySettings(maximumAttempts: 3, baseDelay: .zero), clock: TestClock()))
        // When the call brings its own retry
        _ = try await expectNetworkError {
            try await client.send(
                NetworkRequest<Void>(path: "/x"),
                behavior: .retry(RetrySettings(maximumAttempts: 2, baseDelay: .zero), clock: TestClock()))
        }
        // Then only the per-request one ran: 2 attempts, not 3 × 2
        #expect(transport.requestCount == 2)
        // And a call without one still has the client-wide 3
        _ = try await expectNetworkError { try await client.send(NetworkRequest<Void>(path: "/y")) }
        #expect(transport.requestCount == 5)
    }

    @Test func twoRetriesInOnePerRequestBehaviorFailTheCallBeforeAnyIO() async throws {
        let transport = answering()
        let client = try makeClient(transport: transport)
        let error = try await expectNetworkError {
            try await client.send(
                NetworkRequest<Void>(path: "/x"),
                behavior: CombinedBehavior([.retry(clock: TestClock()), .retry(clock: TestClock())]))
        }
        #expect(error?.kind == .behavior("BehaviorChain"))
        #expect(error?.message.contains("retry") == true)
        #expect(error?.underlyingError is BehaviorConflictError)
        #expect(transport.requestCount == 0)
    }
}

/// A client-wide conflict written in code, built by each initializer on a line of its own: the lines the trap must
/// name.
private enum ConflictWrittenInCode {
    static let both = CombinedBehavior([.retry(), .retry()])
    static let setup = NetworkClient.Configuration(baseURL: nil, transport: MockTransport(), behavior: both)
    static let lines = [#line + 1, #line + 2, #line + 3]
    static func configuration() { _ = NetworkClient(configuration: setup) }
    static func transport() { _ = NetworkClient(baseURL: nil, transport: MockTransport(), behavior: both) }
    static func defaultTransport() { _ = NetworkClient(baseURL: nil, behavior: .without(.credentials)) }
}
