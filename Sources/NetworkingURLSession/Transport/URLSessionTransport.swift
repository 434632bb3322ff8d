import Foundation
import NetworkingHTTP
import NetworkingCore
import NetworkingTLS

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `HTTPTransport` on Foundation's URL loading: the default on Apple platforms, and the fallback on Linux
/// where the libcurl transport cannot load. One long-lived `URLSession` per transport, with the holes of Linux's
/// FoundationNetworking closed.
///
/// - **One hop, returned at the head.** The body follows as an `HTTPBody` fed as data arrives; redirects are
///   declined and come back as responses, which the client follows under its own rules (see
///   `NetworkClient/Configuration/followsRedirects`). The client keeps every time limit and the body size limit.
/// - **Cancellation** is bridged through the data task itself: a cancelled call resumes at once with
///   `CancellationError`, and the task is cancelled from another queue, avoiding the `data(for:)` cancellation
///   deadlock of swift-corelibs-foundation (#5412). A body cancelled by its reader cancels the task. The client's
///   time limit ends a call the same way, without a task of its own per attempt.
/// - **Cookies and caching** are off: no cookie store, no URL cache, so a request sends what was asked.
/// - **Trust** is the system's unless ``Configuration/serverTrust`` says otherwise (own authorities and key pins on
///   Apple platforms; Linux can only use the system store, see `ServerTrust`: use the libcurl transport there).
/// - **Linux limits** (FoundationNetworking): backpressure is soft for streams (see `URLSessionTransport+Streaming`),
///   repeated response fields arrive joined with commas, Foundation adds `Accept: */*` and
///   `Accept-Encoding` when a request has none and decodes gzip and deflate itself, the body of a 3xx that is not
///   followed is lost, a produced request body is collected in a temporary file before it is sent, and a body
///   cancelled while it streams at full speed is read until the server stops, holding up other sessions' new
///   requests meanwhile. Foundation reads the status line itself: `HTTP/1.1 200` (no reason phrase) fails the call,
///   and `Http/1.1 200 OK` passes as a 200.
/// - **Trailer fields stop the process on Linux** (FoundationNetworking traps on them, through Swift 6.3). The
///   transport refuses a request with `TE: trailers` before sending it, and a response whose head announces trailers
///   (`Trailer`), cancelling its task before they arrive; trailers a server sends with the body without announcing
///   them still stop the process. Use the libcurl transport, the Linux default, for servers that send trailers.
/// - **No full duplex, no trailers**: a body that waits on the response (`HTTPBody/waitsOnResponse`) or has trailer
///   fields to send (`HTTPBody/trailerFields`) is refused at once with a `TransportError` naming the request, and a
///   response's trailer fields are not reported (Foundation offers no API for either). `CurlTransport` does both.
public final class URLSessionTransport: HTTPTransport, InterruptibleTransport {
    /// Settings of a ``URLSessionTransport``.
    public struct Configuration: Sendable {
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
            // Linux's FoundationNetworking pools libcurl connections with the defect described above; Apple's
            // URLSession (developer.apple.com/documentation/foundation/urlsession) does not.
            #if canImport(FoundationNetworking)
                false
            #else
                true
            #endif
        }
        /// Which servers are trusted: the system's authorities by default; your own authorities and public-key
        /// pins on Apple platforms (see `ServerTrust`, and what Linux cannot do).
        public var serverTrust: ServerTrust

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - maximumConnectionsPerHost: The most simultaneous connections to one host.
        ///   - reusesConnectionsForNonIdempotentRequests: Whether `POST`-like requests may use pooled connections.
        ///   - serverTrust: Which servers are trusted.
        public init(
            maximumConnectionsPerHost: Int = 6,
            reusesConnectionsForNonIdempotentRequests: Bool = defaultReusesConnectionsForNonIdempotentRequests,
            serverTrust: ServerTrust = .system
        ) {
            self.maximumConnectionsPerHost = maximumConnectionsPerHost
            self.reusesConnectionsForNonIdempotentRequests = reusesConnectionsForNonIdempotentRequests
            self.serverTrust = serverTrust
        }
    }

    /// The transport used by clients that name none.
    public static let shared = URLSessionTransport()

    /// The settings this transport was made with.
    public let configuration: Configuration
    let session: URLSession
    /// Carries non-idempotent requests, each on a connection of its own (see ``Configuration``).
    private let freshConnectionSession: URLSession
    let calls: URLSessionTransportDelegate

    /// The time limit given to Foundation: a day. The client keeps every real limit (libcurl truncates sub-second
    /// timeouts and resets its timer on every byte), and a reader may hold a suspended task for long.
    static let foundationTimeout: TimeInterval = 86_400

    /// Creates a transport with its own `URLSession`. Create one and keep it: sessions are costly to tear down
    /// on Linux, so a transport should live as long as the app.
    ///
    /// - Parameter configuration: Settings.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.httpCookieStorage = nil
        sessionConfiguration.httpShouldSetCookies = false
        sessionConfiguration.urlCache = nil
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.httpMaximumConnectionsPerHost = configuration.maximumConnectionsPerHost
        let delegate = URLSessionTransportDelegate(serverTrust: configuration.serverTrust)
        // Apple docs checked: URLSession(configuration:delegate:delegateQueue:) wants a serial delegate queue.
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

    /// Sends `request` on this transport's session and returns at the head, the body following. The conversion to
    /// Foundation's request happens here: header names go out as written, repeated fields joined into one.
    ///
    /// - Parameter request: The request to send.
    /// - Returns: The response head and its body, for any status code.
    /// - Throws: `CancellationError` when the calling task is cancelled; `TransportError` otherwise.
    public func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
        let original = request
        let interruption = TransferInterruption.current
        if let reason = original.invalidReason ?? original.body.problem {
            // A caller using the transport without a client: a refused write is never sent without its field.
            throw TransportError(.other, "invalid request: \(reason); nothing was sent")
        }
        if let problem = original.body.fullDuplexOrTrailersProblem {
            // Foundation sends a body it has whole (a produced one is collected first) and has no trailer API: such a
            // request would wait forever, or lose its trailers. Refused before anything is sent, naming the request.
            throw TransportError(
                .other,
                "\(original): \(problem), which URLSessionTransport cannot send; nothing was sent. Use CurlTransport")
        }
        if !ServerTrust.isSupported, !configuration.serverTrust.isSystem {
            throw TransportError(
                .secureConnectionFailed,
                "this platform's networking cannot apply a ServerTrust other than .system (own authorities or pins);"
                    + " nothing was sent. On Linux, use the libcurl transport or add the authority to the system store",
                secureConnectionFailure: .certificate)
        }
        if let reason = URLSessionTransportDelegate.refusal(of: original) { throw TransportError(.other, reason) }
        let request: HTTPRequest
        let spooled: URL?
        do {
            (request, spooled) = try await URLSessionTransportDelegate.preparingBody(
                of: original, interruption: interruption)
        } catch let error as CancellationError {
            throw error
        } catch {
            throw TransportError(.other, "the request body could not be prepared: \(error); nothing was sent")
        }
        if original.body.trailerFieldsToSend != nil {
            // A produced body that finished with trailer fields: found once collected, still before any I/O.
            if let spooled { try? FileManager.default.removeItem(at: spooled) }
            throw TransportError(
                .other,
                "\(original): its body finished with trailer fields (HTTPBody.trailerFields), which "
                    + "URLSessionTransport cannot send; nothing was sent. Use CurlTransport")
        }
        let freshConnection =
            !configuration.reusesConnectionsForNonIdempotentRequests && !request.method.isIdempotent
        guard let urlRequest = URLSessionTransportDelegate.urlRequest(for: request, closesConnection: freshConnection)
        else {
            if let spooled { try? FileManager.default.removeItem(at: spooled) }
            throw TransportError(.other, "the request's target cannot form a URL")
        }
        let session = freshConnection ? freshConnectionSession : self.session
        let calls = self.calls
        let call = calls.register(method: request.method, observer: TransferObservation.attempt)
        // The attempt's time limit ends the call as a cancellation does: before the head or while its body comes.
        if let interruption, interruption.register({ calls.finish(call, failure: CancellationError()) }) == nil {
            calls.finish(call, failure: CancellationError())
        }
        let head: (HTTPResponse, HTTPBody)
        do {
            head = try await withTaskCancellationHandler {
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
                calls.finish(call, failure: CancellationError())
            }
        } catch {
            if let spooled { try? FileManager.default.removeItem(at: spooled) }
            throw error
        }
        // A lone call starts its task before suspending, so its head may be handed over first (LockedBox.synchronize).
        calls.table.synchronize()
        if let spooled { head.1.onTermination { _ in try? FileManager.default.removeItem(at: spooled) } }
        return head
    }
}
