import Foundation
import Networking
import Testing
import NetworkingTestSupport

/// `TokenBucket`, the rate limiter's arithmetic, as a table: each row runs steps at given clock readings and lists
/// what each `take` answered (`ok`, or the wait in seconds).
@Suite struct TokenBucketTests {
    enum Step {
        /// A take at `seconds`.
        case take(Double)
        /// A caller starts waiting.
        case wait
        /// A caller stops waiting.
        case leave
        /// A pause of `duration` seconds at `seconds`.
        case pause(Double, Double)
    }

    struct Row: CustomTestStringConvertible, Sendable {
        let name: String
        let capacity: Int
        let rate: Double
        let steps: [Step]
        let answers: [String]
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(
            name: "a full bucket grants its capacity at once, then asks to wait one refill", capacity: 3, rate: 2,
            steps: [.take(0), .take(0), .take(0), .take(0)], answers: ["ok", "ok", "ok", "0.5"]),
        Row(
            name: "tokens come back at the rate", capacity: 1, rate: 4,
            steps: [.take(0), .take(0.125), .take(0.25), .take(0.25)], answers: ["ok", "0.125", "ok", "0.25"]),
        Row(
            name: "the refill never passes the capacity", capacity: 2, rate: 10,
            steps: [.take(100), .take(100), .take(100)], answers: ["ok", "ok", "0.1"]),
        Row(
            name: "callers already waiting push a newcomer's wait back", capacity: 1, rate: 1,
            steps: [.take(0), .take(0), .wait, .take(0), .wait, .take(0)], answers: ["ok", "1.0", "2.0", "3.0"]),
        Row(
            name: "a waiter that leaves no longer delays others", capacity: 1, rate: 1,
            steps: [.take(0), .wait, .wait, .leave, .leave, .take(0)], answers: ["ok", "1.0"]),
        Row(
            name: "a pause empties the bucket and stops the refill until it ends", capacity: 5, rate: 1,
            steps: [.pause(0, 30), .take(0), .take(29), .take(30), .take(31)], answers: ["31.0", "2.0", "1.0", "ok"]),
        Row(
            name: "a shorter pause never shortens a longer one", capacity: 1, rate: 1,
            steps: [.pause(0, 30), .pause(10, 5), .take(20)], answers: ["11.0"]),
        Row(
            name: "a clock reading that goes back in time earns nothing", capacity: 1, rate: 1,
            steps: [.take(10), .take(5), .take(11)], answers: ["ok", "6.0", "ok"]),
    ]

    @Test(arguments: rows)
    func arithmetic(row: Row) throws {
        let settings = try RateLimitSettings(capacity: row.capacity, tokensPerSecond: row.rate)
        var bucket = TokenBucket(settings: settings, now: .zero)
        var answers: [String] = []
        for step in row.steps {
            switch step {
            case .take(let seconds):
                let wait = bucket.take(now: .seconds(seconds))
                answers.append(wait.map { "\(($0.timeInterval * 1000).rounded() / 1000)" } ?? "ok")
            case .wait: bucket.startWaiting()
            case .leave: bucket.stopWaiting()
            case .pause(let seconds, let duration): bucket.pause(now: .seconds(seconds), for: .seconds(duration))
            }
            #expect(bucket.tokens >= 0 && bucket.tokens <= Double(row.capacity))
        }
        #expect(answers == row.answers)
        #expect(bucket.granted == answers.filter { $0 == "ok" }.count)
    }

    @Test func hostileValuesNeverTrap() throws {
        let settings = try RateLimitSettings(capacity: 1, tokensPerSecond: .leastNonzeroMagnitude)
        var bucket = TokenBucket(settings: settings, now: .zero)
        #expect(bucket.take(now: .zero) == nil)
        let wait = bucket.take(now: .seconds(Int64.max))
        #expect(wait.map { $0 > .seconds(1_000_000) } == true)
        bucket.stopWaiting()
        bucket.stopWaiting()
        #expect(bucket.waiting == 0)
    }
}
