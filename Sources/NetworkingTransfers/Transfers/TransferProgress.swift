import Foundation
import NetworkingHTTP
import NetworkingCore

/// How far one upload or download has come: bytes done and, when known, bytes expected.
///
/// Read it from ``NetworkCall/progress``. The values of one call never go down, and the last one is the total:
/// `completedBytes == expectedBytes` for a transfer that finished.
public struct TransferProgress: Sendable, Hashable, CustomStringConvertible {
    /// Bytes sent (upload) or received (download) so far.
    public var completedBytes: Int64
    /// The total expected, from the body's length or the response's `Content-Length`; `nil` when unknown.
    public var expectedBytes: Int64?

    /// Creates a progress value.
    ///
    /// - Parameters:
    ///   - completedBytes: Bytes done.
    ///   - expectedBytes: The total, when known.
    public init(completedBytes: Int64, expectedBytes: Int64?) {
        self.completedBytes = completedBytes
        self.expectedBytes = expectedBytes
    }

    /// The part done, from 0 to 1; `nil` when the total is unknown. A total of 0 counts as done.
    public var fractionCompleted: Double? {
        guard let expectedBytes else { return nil }
        guard expectedBytes > 0 else { return 1 }
        return min(1, Double(completedBytes) / Double(expectedBytes))
    }

    /// `1024 of 4096 bytes`, or `1024 bytes` when the total is unknown.
    public var description: String {
        expectedBytes.map { "\(completedBytes) of \($0) bytes" } ?? "\(completedBytes) bytes"
    }
}
