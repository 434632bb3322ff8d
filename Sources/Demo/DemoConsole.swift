import Foundation
import Networking

/// Where the demo's story goes: prints each event as it happens (through an injected printer, so tests can
/// capture it) and keeps a record for the summary.
final class DemoConsole: Sendable {
    /// What the behaviors reported so far.
    struct Record: Sendable {
        var logLines: [String] = []
        var retries: [RetryBehavior.Event] = []
        var activity: [Bool] = []
        var cache: [HTTPCacheEvent.Kind] = []
        var circuit: [String] = []
        /// The path of every request that reached the backend, in order.
        var sentPaths: [String] = []
        /// The path of every `304` the backend answered, in order.
        var notModifiedPaths: [String] = []
        /// Revalidations the cache reported, by request name.
        var revalidatedNames: [String] = []
        /// Every call the demo made, as it ended.
        var calls: [DemoReport.Call] = []
    }

    /// The activity counter's state, shared with the client's counter behavior.
    let activity = InMemoryActivityCounterStore()
    /// The coalescing behavior's table of shared calls in flight; a test can watch callers join.
    let inFlight = InMemoryCoalescingTable()
    /// How text is painted.
    let style: TerminalStyle
    private let printer: @Sendable (String) -> Void
    private let record = LockedBox(Record())

    /// Creates a console.
    ///
    /// - Parameters:
    ///   - style: Colours, or plain text.
    ///   - printer: Receives each output line; `print` in the app.
    init(style: TerminalStyle, printer: @escaping @Sendable (String) -> Void) {
        self.style = style
        self.printer = printer
    }

    /// What the behaviors reported so far.
    var current: Record { record.current }

    /// Prints a line as it is.
    func line(_ text: String = "") {
        printer(text)
    }

    /// Prints a step heading.
    func step(_ title: String, _ explanation: String) {
        printer("")
        printer(style.bold(title))
        printer(style.dim("  " + explanation))
    }

    /// Called by the activity counter on busy and idle transitions.
    func activityChanged(isBusy: Bool) {
        record.withLock { $0.activity.append(isBusy) }
        let label = isBusy ? style.yellow("● busy") : style.green("○ idle")
        printer("  \(style.dim("activity")) \(label)")
    }

    /// Called by the retry behavior before it waits.
    func retrying(_ event: RetryBehavior.Event) {
        record.withLock { $0.retries.append(event) }
        printer("  \(style.dim("retry   ")) \(style.magenta("↻ \(event)"))")
    }

    /// Records a call the demo made, when it ends.
    func called(_ call: DemoReport.Call) {
        record.withLock { $0.calls.append(call) }
    }

    /// Called by the HTTP cache with each decision; hits and revalidations are shown. A revalidation beyond the
    /// `304`s the backend sent for its path shared one of them through coalescing: it says so.
    func cache(_ event: HTTPCacheEvent) {
        let shared = record.withLock { record -> Bool in
            record.cache.append(event.kind)
            guard event.kind == .revalidated else { return false }
            record.revalidatedNames.append(event.requestName)
            let path = event.requestName.split(separator: " ").last.map(String.init) ?? event.requestName
            let sent = record.notModifiedPaths.filter { $0.hasSuffix(path) }.count
            return record.revalidatedNames.filter { $0 == event.requestName }.count > sent
        }
        switch event.kind {
        case .revalidated:
            let how = shared ? "revalidated by the same 304, shared through coalescing" : "revalidated: 304"
            printer(
                "  \(style.dim("cache   ")) \(style.green("✓ \(event.requestName) served from the cache (\(how))"))")
        case .hit:
            printer(
                "  \(style.dim("cache   ")) \(style.green("✓ \(event.requestName) served from the cache (fresh: nothing sent)"))"
            )
        default:
            break
        }
    }

    /// Called by the circuit breaker on each change of phase.
    func circuit(_ change: CircuitBreakerBehavior.StateChange) {
        let text = "\(change.from.rawValue) → \(change.to.rawValue)"
        record.withLock { $0.circuit.append(text) }
        printer("  \(style.dim("circuit ")) \(style.magenta("⚡ \(change.key): \(text)"))")
    }

    /// Called by the demo's per-request stopwatch.
    func stopwatch(_ line: String) {
        printer("  \(style.dim("per-call")) \(style.yellow("⏱ \(line)"))")
    }

    /// Called by the wire tap with each request that reaches the backend: its method, path and conditional headers.
    func wire(_ request: HTTPRequest) {
        record.withLock { $0.sentPaths.append(request.path) }
        var line = "→ \(request.method.rawValue) \(request.path)"
        for name in ["If-None-Match", "If-Modified-Since"] {
            if let value = request.headerFields[HTTPField.Name(name)] { line += " \(name): \(value)" }
        }
        printer("  \(style.dim("wire    ")) \(style.dim(line))")
    }

    /// Called by the wire tap with the status each request got from the backend.
    func wire(_ response: HTTPResponse, for request: HTTPRequest) {
        if response.status.code == 304 { record.withLock { $0.notModifiedPaths.append(request.path) } }
        let line = "← \(response.status) for \(request.method.rawValue) \(request.path)"
        printer("  \(style.dim("wire    ")) \(style.dim(line))")
    }

    /// Called by the logging behavior with each redacted line.
    func log(_ line: String) {
        record.withLock { $0.logLines.append(line) }
        let painted: String
        if line.contains("] failed ") || line.contains("] cancelled ") {
            painted = style.red(line)
        } else if line.range(of: #"\] \d{3} "#, options: .regularExpression) != nil {
            painted = style.cyan(line)
        } else {
            painted = line
        }
        printer("  \(style.dim("log     ")) \(painted)")
    }
}
