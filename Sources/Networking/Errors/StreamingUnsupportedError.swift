import Foundation

/// The client's transport cannot stream a body (it does not conform to ``StreamingHTTPTransport``): the
/// `underlyingError` of the ``NetworkError`` that a stream or download call throws then.
public struct StreamingUnsupportedError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The transport's type name.
    public let transportType: String

    /// Creates the error.
    ///
    /// - Parameter transportType: The transport's type name.
    public init(transportType: String) {
        self.transportType = transportType
    }

    /// `MyTransport cannot stream response bodies; use a StreamingHTTPTransport`.
    public var description: String {
        "\(transportType) cannot stream response bodies; use a StreamingHTTPTransport"
    }
}
