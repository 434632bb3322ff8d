import Foundation

/// The head of an HTTP response: status, header fields, and the URL that answered (after redirects).
///
/// The body travels beside it through the chain as an ``HTTPBody``.
public struct HTTPResponse: Sendable, Hashable, CustomStringConvertible {
    /// The one body type, for responses as for requests: bytes in memory (what `send` and `response(for:)`
    /// receive), or a body still arriving (`NetworkClient/stream(_:behavior:)` and downloads), which a behavior must
    /// not read: the caller does. To act when it ends, use ``HTTPBody/onTermination(_:)``.
    public typealias Body = HTTPBody

    /// The status.
    public var status: Status
    /// The header fields.
    public var headerFields: HTTPFields
    /// The URL that answered: the request's, or the last redirect's. `nil` when the transport does not say.
    public var url: URL?

    /// Creates a response head.
    ///
    /// - Parameters:
    ///   - status: The status, such as `.ok` or `503`.
    ///   - headerFields: The header fields.
    ///   - url: The URL that answered.
    public init(status: Status, headerFields: HTTPFields = HTTPFields(), url: URL? = nil) {
        self.status = status
        self.headerFields = headerFields
        self.url = url
    }

    /// `503 Service Unavailable`.
    public var description: String { status.description }

    /// A status code and its reason phrase.
    public struct Status: Sendable, Hashable, ExpressibleByIntegerLiteral, CustomStringConvertible {
        /// The three-digit code.
        public let code: Int
        /// The reason phrase: the server's, or the standard one for the code.
        public let reasonPhrase: String

        /// Creates a status.
        ///
        /// - Parameters:
        ///   - code: The code.
        ///   - reasonPhrase: The phrase; `nil` for the standard phrase of the code (empty for an unknown code).
        public init(code: Int, reasonPhrase: String? = nil) {
            self.code = code
            self.reasonPhrase = reasonPhrase ?? Self.standardPhrases[code] ?? ""
        }

        /// Creates a status from its code: `503`.
        ///
        /// - Parameter value: The code.
        public init(integerLiteral value: Int) {
            self.init(code: value)
        }

        /// What the first digit of the code says.
        public enum Kind: Sendable, Hashable {
            /// 1xx: not the final answer.
            case informational
            /// 2xx.
            case successful
            /// 3xx.
            case redirection
            /// 4xx: the request is at fault.
            case clientError
            /// 5xx: the server is at fault.
            case serverError
            /// Outside 100-599.
            case invalid
        }

        /// What the first digit of the code says.
        public var kind: Kind {
            switch code {
            case 100..<200: .informational
            case 200..<300: .successful
            case 300..<400: .redirection
            case 400..<500: .clientError
            case 500..<600: .serverError
            default: .invalid
            }
        }

        /// `503 Service Unavailable`, or the code alone when there is no phrase.
        public var description: String { reasonPhrase.isEmpty ? "\(code)" : "\(code) \(reasonPhrase)" }

        /// Statuses are equal when their codes are: the phrase is informative only.
        public static func == (lhs: Status, rhs: Status) -> Bool { lhs.code == rhs.code }

        /// Hashes the code.
        public func hash(into hasher: inout Hasher) { hasher.combine(code) }

        /// 200 OK.
        public static let ok: Status = 200
        /// 201 Created.
        public static let created: Status = 201
        /// 204 No Content.
        public static let noContent: Status = 204
        /// 304 Not Modified.
        public static let notModified: Status = 304
        /// 401 Unauthorized.
        public static let unauthorized: Status = 401
        /// 404 Not Found.
        public static let notFound: Status = 404
        /// 429 Too Many Requests.
        public static let tooManyRequests: Status = 429
        /// 500 Internal Server Error.
        public static let internalServerError: Status = 500
        /// 503 Service Unavailable.
        public static let serviceUnavailable: Status = 503

        private static let standardPhrases: [Int: String] = [
            100: "Continue", 101: "Switching Protocols", 103: "Early Hints", 200: "OK", 201: "Created",
            202: "Accepted", 203: "Non-Authoritative Information", 204: "No Content", 205: "Reset Content",
            206: "Partial Content", 300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other",
            304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request",
            401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found",
            405: "Method Not Allowed", 406: "Not Acceptable", 407: "Proxy Authentication Required",
            408: "Request Timeout", 409: "Conflict", 410: "Gone", 411: "Length Required", 412: "Precondition Failed",
            413: "Content Too Large", 414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable",
            417: "Expectation Failed", 421: "Misdirected Request", 422: "Unprocessable Content", 425: "Too Early",
            426: "Upgrade Required", 428: "Precondition Required", 429: "Too Many Requests",
            431: "Request Header Fields Too Large", 451: "Unavailable For Legal Reasons",
            500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
            504: "Gateway Timeout", 505: "HTTP Version Not Supported",
        ]
    }
}
