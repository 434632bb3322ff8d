/// The numbers of libcurl's ABI that the WebSocket connections use (from `curl.h`, stable like the others).
extension CurlOption {
    /// CURLOPT_HTTPPROXYTUNNEL: through an HTTP proxy, a `CONNECT` tunnel.
    static let httpProxyTunnel: Int32 = 61
    /// CURLOPT_CONNECT_ONLY: connect (proxy, tunnel, TLS), then stop; the bytes go through curl_easy_send/recv.
    static let connectOnly: Int32 = 141
    /// CURLINFO_ACTIVESOCKET (CURLINFO_SOCKET + 44): the connection's socket.
    static let infoActiveSocket: Int32 = 0x50_002C
}
