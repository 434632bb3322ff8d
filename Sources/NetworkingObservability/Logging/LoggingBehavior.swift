import Foundation
import NetworkingHTTP
import NetworkingCore

/// Writes one line when a request goes out and one when it completes, with secrets redacted.
///
/// ```
/// [Networking 3F2A9C1B] GET https://api.example.com/v1/users?page=2&token=<redacted>
/// [Networking 3F2A9C1B] 200 GET https://api.example.com/v1/users?page=2&token=<redacted> in 245 ms, 1024 bytes
/// [Networking 7D01E4AA] failed POST https://api.example.com/v1/orders 503 in 80 ms: unacceptableStatus(503): …
/// [Networking 5A11E7B0] 200 GET https://api.example.com/v1/users in 1010 ms, 512 bytes, after 3 attempts: 503, 503, 200
/// [Networking 51C0FFEE] cancelled GET https://api.example.com/v1/feed after 1200 ms
/// ```
/// The tag is the start of the call's `RequestContext/callID`, pairing the two lines of one call. Lines report
/// the method, the URL (query values redacted by `Redaction`; user and password never shown), the status,
/// the duration measured on the injected `NetworkClock`, the response size in bytes, and on failure the
/// `NetworkError` kind and message; a call that took more than one attempt (a retry, a hedge, a refreshed credential)
/// ends its line with what each attempt got, in the order they ended. Optional: headers (redacted) and bodies
/// (truncated). Every control
/// character is escaped, so a line is always one line whatever a header, message or body contains, and every
/// redacted value is also scrubbed from the rest of the line: those of the request it was handed, and those of the
/// request as it was sent, so a credential or cookie a behavior inside this one added never shows where the
/// answer echoes it. A `304` answering a conditional request (one with
/// `If-None-Match` or `If-Modified-Since`, as an HTTP cache revalidating sends) is logged as the answer it is,
/// `304 GET … in 12 ms, 0 bytes (not modified)`, not as a failure; the error still goes up the chain unchanged.
///
/// - **Streamed bodies** (`NetworkClient/stream(_:behavior:)`, downloads): the completion line comes with the
///   head and ends with `, streaming`; a third line follows just after the stream ends (from a task of its own),
///   with the byte count and never the
///   body: `[Networking 3F2A9C1B] stream finished GET https://… in 1200 ms, 1048576 bytes` (or `stream failed`,
///   with the error, or `stream cancelled`).
/// - **Where it runs:** by default once per call (`BehaviorPlacement/observation`, outside retry and
///   credentials): one pair of lines per call. With `eachAttempt: true` it runs at `BehaviorPlacement/outgoing`
///   instead: one pair per attempt.
/// - **Headers** (`headers: true`) are written twice, each saying which they are. The start line has the request's
///   headers as this behavior was handed them, `headers before inner behaviors: …`: behaviors inside it add theirs
///   later (at `observation`, the `Authorization` of `.authorization`, cookies; at either placement, the client's
///   default `Accept`). The end line has them as they left the client, `sent headers: …` (credentials included,
///   redacted), then `response headers: …`.
/// - **The sink runs inline** (see ``LogSink``): a slow sink delays the call but cannot break it. It is called
///   even when the call is cancelled, after which the `CancellationError` is rethrown unchanged.
///
/// Defaults: sink ``LogSink/standardError``; `Redaction/default`; start lines on; headers off; bodies
/// ``Bodies/off``; the call's clock. State kept: none (the sink and clock are injected).
public struct LoggingBehavior: RequestBehavior {
    /// Whether bodies are logged.
    public enum Bodies: Sendable, Hashable {
        /// Bodies are not logged: the default, since bodies often hold personal data.
        case off
        /// Bodies are logged as text up to this many bytes, then `… (N bytes)` with the full size.
        case upTo(Int)
    }

    /// Where lines go.
    public let sink: LogSink
    /// What is never shown.
    public let redaction: Redaction
    /// Whether a line is written when the request goes out, besides the one when it completes.
    public let logsStart: Bool
    /// Whether request and response headers are written (redacted).
    public let logsHeaders: Bool
    /// Whether request and response bodies are written.
    public let bodies: Bodies
    /// The clock durations are measured on.
    public let clock: (any NetworkClock)?
    /// Whether each attempt is logged as it leaves (`BehaviorPlacement/outgoing`) rather than each call once
    /// (`BehaviorPlacement/observation`).
    public let logsEachAttempt: Bool

    /// `BehaviorPlacement/observation`, or `BehaviorPlacement/outgoing` with ``logsEachAttempt``.
    public var placement: BehaviorPlacement { logsEachAttempt ? .outgoing : .observation }

    /// Creates the behavior.
    ///
    /// - Parameters:
    ///   - sink: Where lines go; standard error by default.
    ///   - redaction: What is never shown; `Redaction/default` by default.
    ///   - logsStart: Whether to write a line when the request goes out; `true` by default.
    ///   - headers: Whether to write request and response headers; `false` by default.
    ///   - bodies: Whether to write bodies; ``Bodies/off`` by default.
    ///   - clock: The clock durations are measured on; the call's clock (the client's) by default.
    ///   - eachAttempt: Whether to log each attempt as it leaves rather than each call once; `false` by default.
    public init(
        sink: LogSink = .standardError, redaction: Redaction = .default, logsStart: Bool = true,
        headers: Bool = false, bodies: Bodies = .off, clock: (any NetworkClock)? = nil,
        eachAttempt: Bool = false
    ) {
        self.logsEachAttempt = eachAttempt
        self.sink = sink
        self.redaction = redaction
        self.logsStart = logsStart
        self.logsHeaders = headers
        self.bodies = bodies
        self.clock = clock
    }

    /// Logs the request, passes it on unchanged, logs the outcome, and returns or rethrows it unchanged. With a
    /// sink that discards (``LogSink/discard``), it only passes the request on: no line is built.
    ///
    /// - Parameters:
    ///   - request: The request as the outer behaviors left it.
    ///   - context: The call's context; its `callID` tags the lines.
    ///   - next: The rest of the chain.
    /// - Returns: What `next` returned.
    /// - Throws: What `next` threw, unchanged.
    public func intercept(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        guard !sink.discards else { return try await next(request) }
        return try await logged(request, context: context, next: next)
    }

    /// The logging itself, in a function of its own: an async frame is sized for all of its function's paths,
    /// and this one's stays alive for the whole call, so the discarding path keeps a small one.
    @inline(never)
    private func logged(_ request: HTTPRequest, context: RequestContext, next: NextHandler) async throws -> (
        HTTPResponse, HTTPResponse.Body
    ) {
        let clock = self.clock ?? context.clock
        let secrets = redaction.secrets(in: request)
        let shown = redaction.displayTarget(of: request)
        let start = clock.now()
        if logsStart {
            await emit(startLine(request, shownURL: shown, context: context, secrets: secrets), secrets: secrets)
        }
        do {
            let (response, body) = try await next(request)
            // Behaviors inside this one may have added credentials it never saw, which the answer may echo: hide
            // those of the request as it was sent too.
            let secrets = redaction.secrets(in: request, sent: context.requestAsSent)
            let line = successLine(
                request, shownURL: shown, response: response, body: body, elapsed: clock.now() - start,
                context: context, secrets: secrets, attempts: attempts(context))
            await emit(line, secrets: secrets)
            if body.isStreaming {
                logEnd(of: body, request, shownURL: shown, start: start, context: context, secrets: secrets)
            }
            return (response, body)
        } catch {
            let sent = (error as? NetworkError)?.sentRequest ?? context.requestAsSent
            let secrets = redaction.secrets(in: request, sent: sent)
            let line = failureLine(
                request, shownURL: shown, error: error, elapsed: clock.now() - start, context: context,
                secrets: secrets, attempts: attempts(context))
            await emit(line, secrets: secrets)
            throw error
        }
    }

    /// What each attempt of the call got, for the end line of a call logged once (outside retry); each attempt's
    /// own lines need none.
    private func attempts(_ context: RequestContext) -> [AttemptOutcome] {
        logsEachAttempt ? [] : context.attempt?.outcomes ?? []
    }

    func emit(_ line: String, secrets: [String]) async {
        await sink.write(DisplayText.escapingControlCharacters(Redaction.scrub(line, secrets: secrets)))
    }
}

extension RequestBehavior where Self == LoggingBehavior {
    /// Logs each call in one or two redacted lines: `.logging()`, or `.logging(to: sink, bodies: .upTo(1024))`.
    ///
    /// - Parameters:
    ///   - sink: Where lines go; standard error by default.
    ///   - redaction: What is never shown; `Redaction/default` by default.
    ///   - logsStart: Whether to write a line when the request goes out; `true` by default.
    ///   - headers: Whether to write request and response headers; `false` by default.
    ///   - bodies: Whether to write bodies; `LoggingBehavior/Bodies/off` by default.
    ///   - clock: The clock durations are measured on; the call's clock (the client's) by default.
    ///   - eachAttempt: Whether to log each attempt as it leaves rather than each call once; `false` by default.
    /// - Returns: The behavior.
    public static func logging(
        to sink: LogSink = .standardError, redaction: Redaction = .default, logsStart: Bool = true,
        headers: Bool = false, bodies: LoggingBehavior.Bodies = .off, clock: (any NetworkClock)? = nil,
        eachAttempt: Bool = false
    ) -> LoggingBehavior {
        LoggingBehavior(
            sink: sink, redaction: redaction, logsStart: logsStart, headers: headers, bodies: bodies, clock: clock,
            eachAttempt: eachAttempt)
    }
}
