import CCurlShim
import Foundation
import NetworkingCore
import NetworkingHTTP
import NetworkingTLS

/// The `HTTPTransport` on libcurl, found at run time: the default on Linux, where libcurl is already loaded by
/// FoundationNetworking. No header and no link at build time: a small C target declares the parts of libcurl's
/// stable ABI it uses and looks them up with `dlopen`.
///
/// - **One thread per transport** owns libcurl's multi handle and runs every transfer; calls reach it through a
///   queue and a wake-up. Make one transport and keep it: it holds the connection pool.
/// - **One hop, returned at the head**, the body following with real backpressure: a reader slower than the
///   network pauses the transfer. libcurl's own redirect following is off: the client follows redirects.
/// - **Raw heads**: response fields arrive one by one, repeated ones separate, names in their case. Nothing is
///   added to a request that it did not ask for, except `Host`, the body's framing and `Accept-Encoding` (see
///   below): libcurl's default `Accept`, `Expect: 100-continue` and form `Content-Type` are removed.
/// - **Compression**: a request without `Accept-Encoding` announces the codings libcurl decodes (gzip, deflate,
///   and br and zstd when built in) and gets the body decoded; with one, the body comes as the server sent it. A
///   coding the server used without being offered (one libcurl cannot decode) also comes as sent, its
///   `Content-Encoding` intact, with libcurl before 8.5; libcurl 8.5 and later refuse it (`TransportError`).
/// - **Trust**: `ServerTrust` applies fully (own authorities from memory, pins of the server's key).
/// - **Cancellation** removes the transfer from the engine at once; its connection is closed. The client's time
///   limit stops a transfer the same way, without a task of its own per attempt.
public final class CurlTransport: HTTPTransport, InterruptibleTransport {
    /// The settings this transport was made with.
    public let configuration: Configuration
    let loop: CurlLoop
    private let settings: CurlSettings

    /// Creates a transport with its own thread and connection pool.
    ///
    /// - Parameter configuration: Settings.
    /// - Throws: ``CurlUnavailableError`` when libcurl cannot be loaded or lacks what the transport needs.
    public init(configuration: Configuration = Configuration()) throws(CurlUnavailableError) {
        self.configuration = configuration
        let library = try CurlLibrary.named(configuration.libraryName).get()
        settings = try CurlSettings(configuration, library: library)
        loop = try CurlLoop(library: library, configuration: configuration, settings: settings)
    }

    deinit {
        loop.submit(.stop)
    }

    /// The transport's loop thread as a task executor, for callers that want no thread hand-off.
    ///
    /// A call normally crosses threads twice: the caller's task hands the transfer to the loop thread, and the
    /// answer wakes a thread of the global executor. Code run with this executor preferred runs on the loop thread
    /// itself, between its rounds: the request goes out and its answer comes back on one thread.
    ///
    /// ```swift
    /// let transport = try CurlTransport()
    /// let client = NetworkClient(baseURL: api, transport: transport)
    /// let profile = try await withTaskExecutorPreference(transport.executor) {
    ///     try await client.send(NetworkRequest<Profile>(path: "/me"))
    /// }
    /// ```
    ///
    /// Everything such a task does between its awaits runs on the one thread that also moves every transfer of
    /// this transport: keep heavy work (large decodes, file writes) off it, never block it waiting for other work,
    /// and leave callers that do much work between their calls on the global executor, which has a thread per
    /// processor. Callers that mostly wait on calls gain from it (`make bench`, 16 such callers with small
    /// responses: no thread woken per call, and less CPU per call at the same rate).
    /// Structured child tasks (`async let`, task groups) inherit the preference; a `Task {}` does not, nor do the
    /// tasks the client starts of its own. Once the loop has stopped (the transport is gone), the executor hands
    /// its work to the global executor.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
    public var executor: any TaskExecutor { loop }

    /// Whether libcurl can be loaded here with every function this transport needs.
    public static var isAvailable: Bool {
        (try? CurlLibrary.system.get()) != nil
    }

    /// The version of the libcurl this process loads, such as `7.88.1`; `nil` when it cannot be loaded.
    public static var libraryVersion: String? {
        try? CurlLibrary.system.get().version
    }

    /// Sends `request` on libcurl and returns at the head, the body following.
    ///
    /// - Parameter request: The request to send.
    /// - Returns: The response head and its body, for any status code.
    /// - Throws: `CancellationError` when the calling task is cancelled; `TransportError` otherwise.
    public func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
        if let reason = request.invalidReason ?? request.body.problem {
            throw TransportError(.other, "invalid request: \(reason); nothing was sent")
        }
        try Task.checkCancellation()
        let transfer = CurlTransfer(loop: loop, request: request, bufferLimit: configuration.bodyBufferLimit)
        // Set up here, off the loop thread, unless the call will likely wait its turn: then as it enters the engine.
        if loop.setsUpOnCallerThread(transfer), let error = transfer.prepare(settings) {
            transfer.release()
            throw error
        }
        return try await transfer.start()
    }
}
