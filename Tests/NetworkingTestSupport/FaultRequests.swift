import Foundation
import Networking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Short hands for the fault-server tests: keyed queries, waiting for server hits, transport codes.
package enum Faults {
    /// Query items `key=<key>` followed by `extra`, in order.
    package static func query(_ key: String, _ extra: KeyValuePairs<String, String> = [:]) -> [URLQueryItem] {
        [URLQueryItem(name: "key", value: key)] + extra.map { URLQueryItem(name: $0.key, value: $0.value) }
    }

    /// Polls the server until `key` has at least `count` hits, for at most `limit`.
    package static func waitForHits(_ key: String, atLeast count: Int, limit: Duration = .seconds(10)) async throws {
        let deadline = ContinuousClock.now + limit
        while try await FaultServer.hits(key).count < count {
            guard ContinuousClock.now < deadline else {
                throw FaultServerError("\(key) did not reach \(count) hits within \(limit)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// The transport code of a ``NetworkError``, or `nil`.
    package static func transportCode(_ error: NetworkError?) -> TransportError.Code? {
        if case .transport(let code)? = error?.kind { return code }
        return nil
    }
}

/// A body the fault server's `/echo` answers with.
package struct FaultEcho: Decodable, Sendable {
    package let method: String
    package let path: String
    package let query: [String: String]
    package let headers: [String: String]
    package let body: String
}
