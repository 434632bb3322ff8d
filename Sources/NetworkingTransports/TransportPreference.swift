/// Which transport to make with `DefaultTransport/makeTransport(_:)`.
public enum TransportPreference: Sendable, Hashable, CaseIterable {
    /// The platform's default: libcurl on Linux when it loads, URLSession otherwise.
    case automatic
    /// `CurlTransport`; making it fails with `CurlUnavailableError` where libcurl cannot be used.
    case libcurl
    /// `URLSessionTransport`.
    case urlSession
}
