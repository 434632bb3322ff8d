extension HTTPField.Name {
    /// `Accept` (RFC 9110 §12.5.1): the media types the client takes.
    public static let accept: Self = "Accept"
    /// `Accept-Encoding` (RFC 9110 §12.5.3).
    public static let acceptEncoding: Self = "Accept-Encoding"
    /// `Accept-Language` (RFC 9110 §12.5.4).
    public static let acceptLanguage: Self = "Accept-Language"
    /// `Age` (RFC 9111 §5.1).
    public static let age: Self = "Age"
    /// `Authorization` (RFC 9110 §11.6.2): credentials; sensitive.
    public static let authorization: Self = "Authorization"
    /// `Cache-Control` (RFC 9111 §5.2).
    public static let cacheControl: Self = "Cache-Control"
    /// `Connection` (RFC 9110 §7.6.1); set by the transport, never by callers.
    public static let connection: Self = "Connection"
    /// `Content-Encoding` (RFC 9110 §8.4).
    public static let contentEncoding: Self = "Content-Encoding"
    /// `Content-Language` (RFC 9110 §8.5).
    public static let contentLanguage: Self = "Content-Language"
    /// `Content-Length` (RFC 9110 §8.6); set by the transport, never by callers.
    public static let contentLength: Self = "Content-Length"
    /// `Content-Location` (RFC 9110 §8.7).
    public static let contentLocation: Self = "Content-Location"
    /// `Content-Range` (RFC 9110 §14.4).
    public static let contentRange: Self = "Content-Range"
    /// `Content-Type` (RFC 9110 §8.3).
    public static let contentType: Self = "Content-Type"
    /// `Cookie` (RFC 6265 §5.4); sensitive.
    public static let cookie: Self = "Cookie"
    /// `Date` (RFC 9110 §6.6.1).
    public static let date: Self = "Date"
    /// `ETag` (RFC 9110 §8.8.3).
    public static let eTag: Self = "ETag"
    /// `Expires` (RFC 9111 §5.3).
    public static let expires: Self = "Expires"
    /// `Host` (RFC 9110 §7.2); set by the transport, never by callers.
    public static let host: Self = "Host"
    /// `Idempotency-Key` (IETF httpapi draft, used by Stripe and others): lets a server recognise a repeated
    /// `POST`, so `RetrySettings` may retry a request that carries it.
    public static let idempotencyKey: Self = "Idempotency-Key"
    /// `If-Modified-Since` (RFC 9110 §13.1.3).
    public static let ifModifiedSince: Self = "If-Modified-Since"
    /// `If-None-Match` (RFC 9110 §13.1.2).
    public static let ifNoneMatch: Self = "If-None-Match"
    /// `If-Range` (RFC 9110 §13.1.5).
    public static let ifRange: Self = "If-Range"
    /// `Last-Event-ID` (Server-Sent Events).
    public static let lastEventID: Self = "Last-Event-ID"
    /// `Last-Modified` (RFC 9110 §8.8.2).
    public static let lastModified: Self = "Last-Modified"
    /// `Location` (RFC 9110 §10.2.2).
    public static let location: Self = "Location"
    /// `Proxy-Authorization` (RFC 9110 §11.7.2); sensitive.
    public static let proxyAuthorization: Self = "Proxy-Authorization"
    /// `Range` (RFC 9110 §14.2).
    public static let range: Self = "Range"
    /// `Retry-After` (RFC 9110 §10.2.3).
    public static let retryAfter: Self = "Retry-After"
    /// `Set-Cookie` (RFC 6265 §4.1); sensitive.
    public static let setCookie: Self = "Set-Cookie"
    /// `Transfer-Encoding` (RFC 9112 §6.1); set by the transport, never by callers.
    public static let transferEncoding: Self = "Transfer-Encoding"
    /// `User-Agent` (RFC 9110 §10.1.5).
    public static let userAgent: Self = "User-Agent"
    /// `Vary` (RFC 9110 §12.5.5).
    public static let vary: Self = "Vary"
    /// `WWW-Authenticate` (RFC 9110 §11.6.1).
    public static let wwwAuthenticate: Self = "WWW-Authenticate"
}
