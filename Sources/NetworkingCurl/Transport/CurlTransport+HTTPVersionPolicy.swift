extension CurlTransport {
    /// Which HTTP versions a ``CurlTransport`` may use.
    public enum HTTPVersionPolicy: Sendable, Hashable {
        /// HTTP/2 over TLS when the server offers it (ALPN), HTTP/1.1 otherwise and for `http` URLs.
        case automatic
        /// HTTP/1.1 only.
        case http1_1
    }
}
