import Foundation
import Networking
import NetworkingTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Small doubles shared by the tests of the built-in behaviors, which call hooks and `intercept` directly with fake
/// `next` closures: no client, no transport, no network, no sleeping.
package enum BehaviorFakes {
    /// A plain GET request.
    package static let request = HTTPRequest(url: URL(string: "https://api.example.test/v1/items")!)

    /// A response with `status` and `body` to `request`.
    package static func response(
        to request: HTTPRequest, status: Int = 200, body: Data = Data(), headers: HTTPFields = [:]
    ) -> (HTTPResponse, HTTPResponse.Body) {
        (HTTPResponse(status: .init(code: status), headerFields: headers, url: request.url), .data(body))
    }

    /// A `next` answering 200 with an empty body.
    package static let ok: NextHandler = { request in response(to: request) }

    /// The error `next` throws for an unacceptable status, as the client would.
    package static func unacceptable(_ request: HTTPRequest, status: Int, body: Data = Data()) -> NetworkError {
        NetworkError(
            .unacceptableStatus(status), requestName: "GET /items", message: "the server answered \(status)",
            sentRequest: request, response: response(to: request, status: status).0, body: body)
    }

    /// Waits until `condition` holds, checking it after each yield. A condition that never holds is a failed test,
    /// not a hang: after 30 s of wall time (a guard far beyond any passing run, never a measurement) it throws.
    ///
    /// After 1,000 yields it also pauses a millisecond between checks: under ThreadSanitizer, with the whole suite
    /// running, a task that only yields kept the tasks it waited for from running for the full 30 s (2 of 815 tests
    /// in one run of two; each passed alone, and the waited-for tasks join their table synchronously as soon as they
    /// run). What the test asserts never depends on the pause, only on the condition.
    package static func waitUntil(
        fileID: String = #fileID, line: Int = #line, _ condition: () -> Bool
    ) async throws {
        let guardTime = ContinuousClock.now + .seconds(30)
        var checks = 0
        while !condition() {
            if ContinuousClock.now > guardTime {
                throw ExpectationFailure("the awaited condition never held", fileID: fileID, line: line)
            }
            checks += 1
            if checks > 1_000 { try? await Task.sleep(for: .milliseconds(1)) } else { await Task.yield() }
        }
    }

    /// Suspends until the current task is cancelled, then returns.
    package static func suspendUntilCancelled() async {
        let waiter = LockedBox<(cancelled: Bool, continuation: CheckedContinuation<Void, Never>?)>((false, nil))
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = waiter.withLock { state -> Bool in
                    if state.cancelled { return true }
                    state.continuation = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let continuation = waiter.withLock { state in
                state.cancelled = true
                defer { state.continuation = nil }
                return state.continuation
            }
            continuation?.resume()
        }
    }

    /// Runs `behavior` in a one-behavior chain (which names a failing behavior as the client does) over a fake
    /// transport; returns the error the chain threw and how many requests reached the fake transport.
    package static func failureInChain(
        _ behavior: any RequestBehavior, fileID: String = #fileID, line: Int = #line
    ) async throws -> (error: NetworkError?, sends: Int) {
        let sends = LockedBox(0)
        let error = try await expectNetworkError(fileID: fileID, line: line) {
            try await CombinedBehavior([behavior]).intercept(request, context: RequestContext()) { request in
                sends.withLock { $0 += 1 }
                return response(to: request)
            }
        }
        return (error, sends.current)
    }

    /// A seeded random number generator (SplitMix64), so random test inputs are reproducible.
    package struct SeededGenerator: RandomNumberGenerator {
        private var state: UInt64

        package init(seed: UInt64) { state = seed }

        package mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }
    }
}
