import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default ``HTTPTransport``: one long-lived `URLSession` per transport, with the holes of Linux's
/// FoundationNetworking closed.
///
/// - **Cancellation** is bridged through the data task itself: a cancelled call resumes at once with
///   `CancellationError`, and the task is cancelled from another queue, avoiding the `data(for:)` cancellation
///   deadlock of swift-corelibs-foundation (#5412).
/// - **Redirects** are followed by the transport itself, hop by hop, under RFC 9110's rules: bounded
///   (``Configuration/maximumRedirects``); a redirect to a scheme other than http(s), or from https to http, is
///   refused; only a `POST` becomes a `GET` on 301 and 302 (every method but `HEAD` on 303), and then loses its
///   body and the headers describing it; every other method keeps its method and body. `Authorization`, `Cookie`,
///   `Proxy-Authorization` and every field marked sensitive (by the credential behaviors, by
///   `headerFields[sensitive:]`, or through the client's `sensitiveHeaderNames`) are removed once a redirect
///   leaves the original origin (scheme, host or port). Linux's Foundation forwards credentials across origins and drops
///   the body of every redirected request; neither happens here.
/// - **Body size** is limited (``Configuration/maximumResponseBodySize``): a larger `Content-Length` fails before
///   the body is read, and a body that grows past the limit fails as soon as it does. Answers that have no body
///   (to `HEAD`, and 204 and 304) are never refused for the length they announce.
/// - **Cookies and caching** are off: no cookie store, no URL cache, so a request sends what was asked.
/// - **Timeouts**: ``NetworkClient`` enforces sub-second attempt limits and whole-call deadlines itself, since
///   libcurl truncates sub-second timeouts and ignores resource timeouts.
/// - **Trust** is the system's unless ``Configuration/serverTrust`` says otherwise (own authorities and key pins on
///   Apple platforms; Linux can only use the system store, see ``ServerTrust``).
public final class URLSessionTransport: HTTPTransport {
    /// Limits and settings of a ``URLSessionTransport``.
    public struct Configuration: Sendable {
        /// The largest body accepted, in bytes. Default: 32 MiB, far above API payloads, far below memory trouble.
        public var maximumResponseBodySize: Int
        /// The most redirects followed in one request. Default: 10 (OkHttp and URLSession allow 20, AHC 5).
        public var maximumRedirects: Int
        /// Whether redirects are followed. Default: `true`. With `false` every 3xx comes back as the response
        /// (Alamofire's `Redirector(.doNotFollow)`): the client then reports it as `unacceptableStatus` with its
        /// `Location` header, unless the request accepts that status. A request can choose for itself with
        /// ``HTTPRequest/followsRedirects`` (``NetworkRequest/followsRedirects``).
        public var followsRedirects: Bool
        /// The most simultaneous connections to one host. Default: 6, URLSession's own default.
        public var maximumConnectionsPerHost: Int
        /// Whether requests with a non-idempotent method (`POST`, `PATCH`, ...) may reuse a pooled connection.
        /// Default: ``defaultReusesConnectionsForNonIdempotentRequests``, `false` on Linux and `true` on Apple
        /// platforms. On Linux, libcurl re-sends a request whose pooled connection the server just closed, and for a
        /// `POST` it sends the headers without the body (a truncated request the server may act on), then spins
        /// until the timeout. With `false`, such requests go on a fresh connection each time (`Connection: close`),
        /// at the cost of one connection set-up per request. This relies on the server answering
        /// `Connection: close` as RFC 9112 §9.6 asks (nginx does); a server that closes without saying so lets
        /// libcurl pool the connection, and concurrent requests can still meet it as it dies. Apple's URLSession
        /// has no such defect, and a fresh connection there would cost every `POST` a new TLS handshake.
        public var reusesConnectionsForNonIdempotentRequests: Bool

        /// The platform's default for ``reusesConnectionsForNonIdempotentRequests``: `false` where
        /// FoundationNetworking (libcurl) carries the requests, `true` on Apple platforms.
        public static var defaultReusesConnectionsForNonIdempotentRequests: Bool {
            #if canImport(FoundationNetworking)
                false
            #else
                true
            #endif
        }
        /// Which servers are trusted: the system's authorities by default; your own authorities and public-key
        /// pins on Apple platforms (see ``ServerTrust``, and what Linux cannot do).
        public var serverTrust: ServerTrust

        /// The default body limit: 32 MiB.
        package static let defaultMaximumResponseBodySize = 32 * 1024 * 1024
        /// The default redirect limit: 10.
        package static let defaultMaximumRedirects = 10

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - maximumResponseBodySize: The largest body accepted, in bytes.
        ///   - maximumRedirects: The most redirects followed; 0 refuses every redirect.
        ///   - maximumConnectionsPerHost: The most simultaneous connections to one host.
        ///   - reusesConnectionsForNonIdempotentRequests: Whether `POST`-like requests may use pooled connections.
        ///   - serverTrust: Which servers are trusted.
        ///   - followsRedirects: Whether redirects are followed.
        public init(
            maximumResponseBodySize: Int = 32 * 1024 * 1024,
            maximumRedirects: Int = 10,
            maximumConnectionsPerHost: Int = 6,
            reusesConnectionsForNonIdempotentRequests: Bool = defaultReusesConnectionsForNonIdempotentRequests,
            serverTrust: ServerTrust = .system,
            followsRedirects: Bool = true
        ) {
            self.maximumResponseBodySize = maximumResponseBodySize
            self.maximumRedirects = maximumRedirects
            self.maximumConnectionsPerHost = maximumConnectionsPerHost
            self.reusesConnectionsForNonIdempotentRequests = reusesConnectionsForNonIdempotentRequests
            self.serverTrust = serverTrust
            self.followsRedirects = followsRedirects
        }
    }

    /// The transport used by clients that name none.
    public static let shared = URLSessionTransport()

    /// The limits this transport enforces.
    public let configuration: Configuration
    private let session: URLSession
    /// Carries non-idempotent requests, each on a connection of its own (see ``Configuration``).
    private let freshConnectionSession: URLSession
    let calls: URLSessionTransportDelegate

    /// Creates a transport with its own `URLSession`. Create one and keep it: sessions are costly to tear down
    /// on Linux, so a transport should live as long as the app.
    ///
    /// - Parameter configuration: Limits and settings.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.httpCookieStorage = nil
        sessionConfiguration.httpShouldSetCookies = false
        sessionConfiguration.urlCache = nil
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.httpMaximumConnectionsPerHost = configuration.maximumConnectionsPerHost
        let delegate = URLSessionTransportDelegate(
            maximumBodySize: configuration.maximumResponseBodySize, maximumRedirects: configuration.maximumRedirects,
            serverTrust: configuration.serverTrust, followsRedirects: configuration.followsRedirects)
        #if canImport(FoundationNetworking)
            let queue: OperationQueue = URLSessionTransportDelegateQueue()
        #else
            let queue = OperationQueue()
        #endif
        queue.maxConcurrentOperationCount = 1
        queue.name = "Networking.URLSessionTransport"
        self.calls = delegate
        self.session = URLSession(configuration: sessionConfiguration, delegate: delegate, delegateQueue: queue)
        self.freshConnectionSession = URLSession(
            configuration: sessionConfiguration, delegate: delegate, delegateQueue: queue)
    }

    deinit {
        session.finishTasksAndInvalidate()
        freshConnectionSession.finishTasksAndInvalidate()
    }

    /// Sends `request` on this transport's session. The conversion to Foundation's request happens here, once per
    /// hop: header names go out as written, repeated fields joined into one.
    ///
    /// - Parameter request: The request to send.
    /// - Returns: The response head and body, for any status code.
    /// - Throws: `CancellationError` when the calling task is cancelled; ``TransportError`` otherwise.
    public func send(_ request: HTTPRequest) async throws -> (HTTPResponse, Data) {
        try await send(request, limit: nil)
    }

    /// Sends `request`, ending it with ``TimeLimitExceeded`` when `timeLimit` passes first.
    package func send(_ request: HTTPRequest, timeLimit: Duration) async throws -> (HTTPResponse, Data) {
        try await send(request, limit: timeLimit.clampedForTimers)
    }

    /// The timeout handed to Foundation for a call limited to `limit`. libcurl truncates sub-second timeouts (0.3 s
    /// becomes 1 ms) and resets its timer on every byte: it gets the limit rounded up to whole seconds plus one, so
    /// the transport's own timer always fires first. Without a limit, Foundation's default of 60 seconds.
    package static func foundationTimeout(for limit: Duration?) -> TimeInterval {
        limit.map { $0.seconds.rounded(.up) + 1 } ?? 60
    }

    /// Sends `original`; with a `stream`, the head returns as soon as it arrives and the body goes into the stream.
    func send(
        _ original: HTTPRequest, limit: Duration?, stream: StreamFeed? = nil,
        registered: (UInt64) -> Void = { _ in }
    ) async throws -> (HTTPResponse, Data) {
        if let reason = original.invalidReason {
            // A caller using the transport without a client: a refused write is never sent without its field.
            throw TransportError(.other, "invalid request: \(reason); nothing was sent")
        }
        if !ServerTrust.isSupported, !configuration.serverTrust.isSystem {
            throw TransportError(
                .secureConnectionFailed,
                "this platform's networking cannot apply a ServerTrust other than .system (own authorities or pins);"
                    + " nothing was sent. On Linux, add the authority to the system store instead",
                secureConnectionFailure: .certificate)
        }
        if let problem = URLSessionTransportDelegate.bodyProblem(in: original) {
            throw TransportError(.other, "\(problem); nothing was sent")
        }
        let request: HTTPRequest
        let spooled: URL?
        do {
            (request, spooled) = try await URLSessionTransportDelegate.preparingBody(of: original)
        } catch let error as CancellationError {
            throw error
        } catch {
            throw TransportError(.other, "the request body could not be prepared: \(error); nothing was sent")
        }
        defer { if let spooled { try? FileManager.default.removeItem(at: spooled) } }
        let freshConnection =
            !configuration.reusesConnectionsForNonIdempotentRequests && !request.method.isIdempotent
        let timeoutInterval = stream == nil ? Self.foundationTimeout(for: limit) : Self.streamFoundationTimeout
        guard
            let urlRequest = URLSessionTransportDelegate.urlRequest(
                for: request, timeoutInterval: timeoutInterval, closesConnection: freshConnection)
        else {
            throw TransportError(.other, "the request's target cannot form a URL")
        }
        let deadline = limit.map { DispatchTime.now(plus: $0) }
        let session = freshConnection ? freshConnectionSession : self.session
        let calls = self.calls
        let call = calls.register(
            request, timeoutInterval: timeoutInterval, closesConnection: freshConnection, deadline: deadline,
            stream: stream, bodyIsReplayable: original.body.isReplayable)
        registered(call)
        let (data, response) = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard calls.attach(continuation, to: call) else { return }
                // On Linux, creating and resuming a task `sync`s onto the session's work queue and can block for
                // hundreds of milliseconds under load; doing that on Swift's cooperative threads would stall them (and
                // with them every timer), so it happens on the transport's own queue: through `sync` on this thread
                // when the call is alone and the queue idle (no thread hop), `async` otherwise. Either way the
                // serial queue keeps a cancel from overtaking the resume.
                // The block holds the transport, so its session cannot be invalidated by `deinit` before it runs.
                let start: @Sendable () -> Void = { [self] in
                    withExtendedLifetime(self) {
                        guard calls.isPending(call) else { return }
                        let task = URLSessionTransportDelegate.makeTask(for: request, urlRequest, on: session)
                        if calls.bind(task, to: call) {
                            task.resume()
                        } else {
                            task.cancel()
                        }
                    }
                }
                calls.onQueue(startingAlone: call, start)
            }
        } onCancel: {
            calls.finish(call, with: .failure(CancellationError()))
        }
        return (HTTPResponse(response), data)
    }
}

extension URLSessionTransport: TimeLimitedTransport {}

/// The transport every ``NetworkClient`` uses unless it is given another.
func makeDefaultTransport() -> any HTTPTransport {
    URLSessionTransport.shared
}
