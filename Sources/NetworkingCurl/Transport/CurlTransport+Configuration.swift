import Foundation
import NetworkingHTTP
import NetworkingTLS

extension CurlTransport {
    /// Settings of a ``CurlTransport``.
    public struct Configuration: Sendable {
        /// The most simultaneous connections to one host; further calls wait for one to be free. Default: 32; 0 for
        /// no limit. They wait in the transport, in order, before libcurl gives them a receive buffer: a waiting call
        /// holds its request and little else, and one cancelled or timed out leaves the line at once. Over HTTPS the
        /// line starts at 100 calls a connection, since HTTP/2 carries up to 100 at once on one.
        public var maximumConnectionsPerHost: Int
        /// The most idle connections kept open for reuse, all hosts together. Default: 64. Below the number of
        /// concurrent callers, connections are closed and opened again all the time.
        public var maximumPooledConnections: Int
        /// Which servers are trusted: the system's authorities by default; your own authorities (in memory, libcurl
        /// 7.77 or later) and public-key pins. A pin is checked against the server's own (leaf) key.
        public var serverTrust: ServerTrust
        /// Which HTTP versions may be used.
        public var httpVersion: HTTPVersionPolicy
        /// The proxy. Default: ``ProxySettings/none``; the `http_proxy` family of environment variables is read only
        /// with ``ProxySettings/environment``.
        public var proxy: ProxySettings
        /// The bytes of a response body buffered for a slow reader before the transfer pauses. Default: 1 MiB.
        public var bodyBufferLimit: Int
        /// The library to load. Default: ``defaultLibraryName``.
        public var libraryName: String

        /// The system's libcurl: `libcurl.so.4` on Linux, `/usr/lib/libcurl.4.dylib` on macOS (iOS, tvOS and
        /// watchOS have none: loading fails with `CurlUnavailableError`).
        public static var defaultLibraryName: String {
            // Apple docs checked: macOS ships libcurl as /usr/lib/libcurl.4.dylib, which /usr/bin/curl links. Since
            // macOS 11 system libraries live in the dynamic linker cache, not on disk: the macOS Big Sur 11.0.1
            // release notes (developer.apple.com) say to check for one by calling dlopen, never by its file.
            #if os(macOS)
                "/usr/lib/libcurl.4.dylib"
            #else
                "libcurl.so.4"
            #endif
        }
        /// The certificate and key shown to servers that ask for one (mutual TLS). Default: none.
        public var clientIdentity: ClientIdentity?

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - maximumConnectionsPerHost: The most simultaneous connections to one host.
        ///   - maximumPooledConnections: The most idle connections kept for reuse.
        ///   - serverTrust: Which servers are trusted.
        ///   - httpVersion: Which HTTP versions may be used.
        ///   - proxy: The proxy.
        ///   - bodyBufferLimit: The bytes buffered for a slow reader before the transfer pauses.
        ///   - libraryName: The library to load.
        ///   - clientIdentity: The certificate and key shown to servers that ask for one.
        public init(
            maximumConnectionsPerHost: Int = 32, maximumPooledConnections: Int = 64, serverTrust: ServerTrust = .system,
            httpVersion: HTTPVersionPolicy = .automatic, proxy: ProxySettings = .none,
            bodyBufferLimit: Int = HTTPBody.defaultBufferLimit, libraryName: String = Configuration.defaultLibraryName,
            clientIdentity: ClientIdentity? = nil
        ) {
            self.maximumConnectionsPerHost = maximumConnectionsPerHost
            self.maximumPooledConnections = maximumPooledConnections
            self.serverTrust = serverTrust
            self.httpVersion = httpVersion
            self.proxy = proxy
            self.bodyBufferLimit = bodyBufferLimit
            self.libraryName = libraryName
            self.clientIdentity = clientIdentity
        }
    }
}
