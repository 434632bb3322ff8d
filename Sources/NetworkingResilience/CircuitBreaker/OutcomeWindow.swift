import Foundation
import NetworkingHTTP
import NetworkingCore

/// Successes and failures over the last `length` of clock time, kept in ten buckets that slide a tenth at a time.
struct OutcomeWindow: Sendable, Hashable {
    /// One tenth of the window.
    private struct Bucket: Sendable, Hashable {
        let index: Int64
        var successes = 0
        var failures = 0
    }

    static let bucketCount: Int64 = 10
    private let width: Duration
    private var buckets: [Bucket] = []

    init(length: Duration) {
        width = max(length / Int(Self.bucketCount), .nanoseconds(1))
    }

    /// Adds one outcome to the bucket of `now`, forgetting buckets that left the window.
    mutating func add(failure: Bool, at now: Duration) {
        let index = bucketIndex(now)
        let oldest = index &- Self.bucketCount
        buckets.removeAll { $0.index <= oldest }
        if buckets.last?.index != index { buckets.append(Bucket(index: index)) }
        if failure {
            buckets[buckets.count - 1].failures += 1
        } else {
            buckets[buckets.count - 1].successes += 1
        }
    }

    /// The outcomes in the window at `now`.
    func totals(at now: Duration) -> (successes: Int, failures: Int) {
        let index = bucketIndex(now)
        var totals = (successes: 0, failures: 0)
        for bucket in buckets where bucket.index > index &- Self.bucketCount {
            totals.successes += bucket.successes
            totals.failures += bucket.failures
        }
        return totals
    }

    /// The bucket number of a clock reading, clamped so that no reading can trap.
    private func bucketIndex(_ now: Duration) -> Int64 {
        let ratio = now / width
        guard ratio.isFinite else { return ratio < 0 ? Int64.min / 2 : Int64.max / 2 }
        return Int64(max(min(ratio.rounded(.down), 4e18), -4e18))
    }
}
