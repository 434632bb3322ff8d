import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

/// Each RFC 9111 / RFC 5861 / RFC 8246 rule of the Conformance article through a client, on a mock transport and
/// virtual time, counting what reaches the wire.
@Suite struct HTTPCacheConformanceClientTests {
    @Test func aListValuedAgeMakesTheResponseStale() async throws {
        let harness = try HTTPCacheHarness { _ in (200, ["Cache-Control": "max-age=3600", "Age": "7200, 0"], "x") }
        try await harness.get()
        try await harness.get()
        #expect(harness.sends == 2)
    }

    @Test func anInvalidExpiresIsAlreadyExpired() async throws {
        let harness = try HTTPCacheHarness { _ in
            (200, ["Expires": "Tue,  14 Nov 2099 23:13:20 GMT", "Date": "Tue, 14 Nov 2023 22:13:20 GMT"], "x")
        }
        try await harness.get()
        try await harness.get()
        #expect(harness.sends == 2)
    }

    @Test func hopByHopFieldsAreNotServedFromTheStore() async throws {
        let harness = try HTTPCacheHarness { _ in
            (
                200,
                [
                    "Cache-Control": "max-age=60", "Connection": "X-Hop", "X-Hop": "1", "Keep-Alive": "timeout=5",
                    "X-End": "2",
                ], "x"
            )
        }
        try await harness.get()
        let (hit, _) = try await harness.get()
        #expect(harness.sends == 1)
        #expect(HTTPCacheBehavior.outcome(of: hit) == .hit)
        #expect(hit.headerFields["X-End"] == "2")
        #expect(!hit.headerFields.contains("X-Hop") && !hit.headerFields.contains("Keep-Alive"))
        #expect(!hit.headerFields.contains("Connection"))
    }

    @Test func explicitFreshnessStoresAStatusThatIsNotHeuristicallyCacheable() async throws {
        let harness = try HTTPCacheHarness { _ in (201, ["Cache-Control": "max-age=60"], "made") }
        try await harness.get()
        let (hit, body) = try await harness.get()
        #expect(harness.sends == 1)
        #expect(hit.status.code == 201 && body == "made")
    }

    @Test func mustUnderstandOverridesNoStoreForAnUnderstoodStatus() async throws {
        let harness = try HTTPCacheHarness { _ in (200, ["Cache-Control": "no-store, must-understand, max-age=60"], "x")
        }
        try await harness.get()
        try await harness.get()
        #expect(harness.sends == 1)
    }

    @Test func severalVariantsOfOneURLAreKept() async throws {
        let harness = try HTTPCacheHarness { request in
            (
                200, ["Cache-Control": "max-age=60", "Vary": "Accept-Language"],
                request.headerFields["Accept-Language"] ?? ""
            )
        }
        try await harness.get(headers: ["Accept-Language": "en-US, fr;q=0.5"])
        try await harness.get(headers: ["Accept-Language": "de"])
        let (_, english) = try await harness.get(headers: ["Accept-Language": "EN-us,fr;q=0.50"])
        let (_, german) = try await harness.get(headers: ["Accept-Language": "de"])
        #expect(harness.sends == 2)
        #expect(english == "en-US, fr;q=0.5")
        #expect(german == "de")
    }

    @Test func a304UpdatesTheStoredETag() async throws {
        let harness = try HTTPCacheHarness { request in
            switch request.headerFields["If-None-Match"] {
            case "\"v1\"": (304, ["ETag": "W/\"v1\"", "X-Version": "2"], "")
            case "W/\"v1\"": (304, [:], "")
            default: (200, ["Cache-Control": "no-cache", "ETag": "\"v1\"", "X-Version": "1"], "body")
            }
        }
        try await harness.get()
        let (first, _) = try await harness.get()
        let (second, body) = try await harness.get()
        #expect(harness.sends == 3)
        #expect(first.headerFields["X-Version"] == "2")
        #expect(harness.lastSent?.headerFields["If-None-Match"] == "W/\"v1\"")
        #expect(second.headerFields["ETag"] == "W/\"v1\"" && body == "body")
    }

    @Test func staleWhileRevalidateServesStaleOnceAndRevalidatesInTheBackground() async throws {
        let harness = try HTTPCacheHarness { request in
            request.headerFields["If-None-Match"] == "\"v1\""
                ? (304, ["Cache-Control": "max-age=10, stale-while-revalidate=60", "X-Version": "2"], "")
                : (
                    200,
                    ["Cache-Control": "max-age=10, stale-while-revalidate=60", "ETag": "\"v1\"", "X-Version": "1"], "b"
                )
        }
        try await harness.get()
        harness.clock.advance(by: .seconds(15))
        let (stale, body) = try await harness.get()
        #expect(HTTPCacheBehavior.outcome(of: stale) == .servedStale)
        #expect(stale.headerFields["X-Version"] == "1" && stale.headerFields["Age"] == "15" && body == "b")
        await harness.next(.revalidated)
        #expect(harness.sends == 2)
        #expect(harness.lastSent?.headerFields["If-None-Match"] == "\"v1\"")
        let (fresh, _) = try await harness.get()
        #expect(harness.sends == 2)
        #expect(HTTPCacheBehavior.outcome(of: fresh) == .hit && fresh.headerFields["X-Version"] == "2")
        // Past the window, the call waits for the revalidation.
        harness.clock.advance(by: .seconds(100))
        let (revalidated, _) = try await harness.get()
        #expect(HTTPCacheBehavior.outcome(of: revalidated) == .revalidated)
        #expect(harness.sends == 3)
    }

    @Test func staleIfErrorServesTheStaleResponseWhenTheServerFailsWithinTheWindow() async throws {
        let failures = LockedBox(0)
        let harness = try HTTPCacheHarness { request in
            guard request.headerFields.contains("If-None-Match") else {
                return (200, ["Cache-Control": "max-age=10, stale-if-error=60", "ETag": "\"v1\""], "kept")
            }
            let failure = failures.withLock { count in
                count += 1
                return count
            }
            if failure == 1 { return (503, [:], "down") }
            throw TransportError(.connectionLost, "the connection was lost")
        }
        try await harness.get()
        harness.clock.advance(by: .seconds(20))
        let (afterStatus, first) = try await harness.get()
        let (afterError, second) = try await harness.get()
        #expect(harness.sends == 3)
        #expect(first == "kept" && second == "kept")
        #expect(HTTPCacheBehavior.outcome(of: afterStatus) == .servedStale)
        #expect(HTTPCacheBehavior.outcome(of: afterError) == .servedStale)
        harness.clock.advance(by: .seconds(60))
        await #expect(throws: NetworkError.self) { try await harness.get() }
        #expect(harness.sends == 4)
    }

    @Test func anImmutableResponseIsNotRevalidatedWhileFreshUnlessForced() async throws {
        let harness = try HTTPCacheHarness { _ in
            (200, ["Cache-Control": "max-age=60, immutable", "ETag": "\"v\""], "x")
        }
        try await harness.get()
        try await harness.get(headers: ["Cache-Control": "max-age=0"])
        #expect(harness.sends == 1)
        try await harness.get(headers: ["Cache-Control": "no-cache"])
        #expect(harness.sends == 2)
    }

    @Test func theCorrectedInitialAgeCountsTheResponseDelay() async throws {
        let clock = TestClock(mode: .manual)
        let harness = try HTTPCacheHarness(clock: clock) { _ in
            clock.advance(by: .seconds(5))
            return (200, ["Cache-Control": "max-age=20", "Age": "10"], "x")
        }
        try await harness.get()
        clock.advance(by: .seconds(4))
        let (hit, _) = try await harness.get()
        #expect(hit.headerFields["Age"] == "19")
        clock.advance(by: .seconds(1))
        try await harness.get()
        #expect(harness.sends == 2)
    }

    @Test func aPOSTAnswerForItsOwnURLAnswersALaterGET() async throws {
        let harness = try HTTPCacheHarness { request in
            request.method == .post
                ? (200, ["Cache-Control": "max-age=60", "Content-Location": "/items"], "posted")
                : (200, [:], "fetched")
        }
        try await harness.get(method: .post)
        let (hit, body) = try await harness.get()
        #expect(harness.sends == 1)
        #expect(body == "posted" && HTTPCacheBehavior.outcome(of: hit) == .hit)
    }

    @Test func partialContentIsNeverStored() async throws {
        let harness = try HTTPCacheHarness { _ in
            (206, ["Cache-Control": "max-age=60", "Content-Range": "bytes 0-1/10"], "ab")
        }
        try await harness.get()
        try await harness.get()
        #expect(harness.sends == 2)
        #expect(harness.kinds.contains(.notStored))
    }
}
