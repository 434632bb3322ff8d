import Foundation

extension CurlTransport {
    /// The proxy of a ``CurlTransport``.
    public enum ProxySettings: Sendable, Hashable {
        /// No proxy, whatever the environment says.
        case none
        /// The `http_proxy`, `https_proxy`, `all_proxy` and `no_proxy` environment variables, as libcurl reads them.
        case environment
        /// This proxy (`http://user:password@proxy:3128`; `https` URLs go through `CONNECT`), except for the hosts
        /// in `bypass` (libcurl's `no_proxy` syntax: host names, domains, `*`).
        case url(URL, bypass: [String] = [])
    }
}
