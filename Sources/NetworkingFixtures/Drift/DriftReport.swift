import Foundation
import NetworkingHTTP
import NetworkingCore

/// The result of checking a recorded folder against the live backend: for every recorded answer, what changed.
///
/// ```swift
/// let report = await DriftReport.check(
///     directory: fixturesURL, against: liveTransport, baseURL: URL(string: "https://api.example.com/v1")!)
/// #expect(!report.hasDrift, "\(report)")
/// ```
/// Every recorded request of a safe method (`GET`, `HEAD`, `OPTIONS`, `TRACE`: RFC 9110 §9.2.1) is sent again (a
/// sequence as many times as it has answers, a stored request body with it) and its answer compared with the
/// recording: status, then, when the status is the same, the shape of JSON bodies (missing keys, new keys, type
/// changes). Bodies are never compared by value, so data that changes every day is no drift, and a value the
/// recording scrubbed (`<redacted>`) is not compared at all: its key still counts. A recorded `POST`, `PUT`, `PATCH`
/// or `DELETE` would change the live backend, so it is not sent unless asked
/// (``check(directory:against:baseURL:headers:sendingUnsafeMethods:)``): ``unsent`` lists it.
public struct DriftReport: Sendable, Hashable, CustomStringConvertible {
    /// One entry per recorded answer that was checked, in manifest key order.
    public let fixtures: [FixtureDrift]
    /// The recorded requests of an unsafe method that were not sent again, as their manifest keys (`#n` for the n-th
    /// answer of a sequence); empty when every recording was checked.
    public let unsent: [String]

    /// Creates a report.
    ///
    /// - Parameter fixtures: One entry per recorded answer.
    public init(fixtures: [FixtureDrift]) {
        self.init(fixtures: fixtures, unsent: [])
    }

    /// Creates a report that also lists recordings not sent again.
    ///
    /// - Parameters:
    ///   - fixtures: One entry per recorded answer that was checked.
    ///   - unsent: The recorded requests not sent again.
    public init(fixtures: [FixtureDrift], unsent: [String]) {
        self.fixtures = fixtures
        self.unsent = unsent
    }

    /// The entries with at least one change.
    public var drifted: [FixtureDrift] { fixtures.filter { !$0.changes.isEmpty } }

    /// Whether any recorded answer drifted.
    public var hasDrift: Bool { !drifted.isEmpty }

    /// One line per drifted answer, or a line saying that none drifted; then, when some were not sent again, a
    /// line naming them.
    public var description: String {
        let drifted = drifted
        var text =
            drifted.isEmpty
            ? "no drift in \(fixtures.count) recorded answers"
            : "\(drifted.count) of \(fixtures.count) recorded answers drifted:\n"
                + drifted.map { "  " + $0.description }.joined(separator: "\n")
        if !unsent.isEmpty {
            text +=
                "\n\(unsent.count) recorded requests of unsafe methods not sent again (sendingUnsafeMethods: true "
                + "sends them): " + unsent.joined(separator: ", ")
        }
        return text
    }

    /// Sends every request of a safe method recorded in `directory` to `transport` and compares each answer with
    /// its recording; recordings of unsafe methods are listed in ``unsent``, not sent.
    ///
    /// - Parameters:
    ///   - directory: A folder recorded by `RecordingTransport`.
    ///   - transport: The live transport, such as the platform's default transport.
    ///   - baseURL: The backend's base URL, its path included (the recording's base path).
    ///   - headers: Header fields sent with every request, such as credentials the recording left out.
    /// - Returns: The report; a folder that cannot be read gives one entry saying why.
    public static func check(
        directory: URL, against transport: any HTTPTransport, baseURL: URL, headers: HTTPFields = [:]
    ) async -> DriftReport {
        await check(
            directory: directory, against: transport, baseURL: baseURL, headers: headers, sendingUnsafeMethods: false)
    }

    /// Sends the requests recorded in `directory` to `transport` and compares each answer with its recording;
    /// recordings of unsafe methods (`POST`, `PUT`, `PATCH`, `DELETE`, ...) only when `sendingUnsafeMethods` says so,
    /// since each would change the live backend again (a test backend's, say), with its recorded body, whose scrubbed
    /// values are sent as `<redacted>`.
    ///
    /// - Parameters:
    ///   - directory: A folder recorded by `RecordingTransport`.
    ///   - transport: The live transport, such as the platform's default transport.
    ///   - baseURL: The backend's base URL, its path included (the recording's base path).
    ///   - headers: Header fields sent with every request, such as credentials the recording left out.
    ///   - sendingUnsafeMethods: Whether recordings of methods other than `GET`, `HEAD`, `OPTIONS` and `TRACE` are
    ///     sent; otherwise ``unsent`` lists them.
    /// - Returns: The report; a folder that cannot be read gives one entry saying why.
    public static func check(
        directory: URL, against transport: any HTTPTransport, baseURL: URL, headers: HTTPFields = [:],
        sendingUnsafeMethods: Bool
    ) async -> DriftReport {
        let (read, failure) = manifest(in: directory)
        guard let cassette = read else { return DriftReport(fixtures: failure.map { [$0] } ?? []) }
        var fixtures: [FixtureDrift] = []
        var unsent: [String] = []
        for (name, key, step) in requests(of: cassette) {
            if !sendingUnsafeMethods, !isSafe(key) {
                unsent.append(name)
                continue
            }
            let changes = await compare(
                step, key: key, directory: directory, transport: transport, baseURL: baseURL, headers: headers)
            fixtures.append(FixtureDrift(request: name, file: step.file, changes: changes))
        }
        return DriftReport(fixtures: fixtures, unsent: unsent)
    }

    /// Whether the manifest key `METHOD /path` names a safe method (RFC 9110 §9.2.1): one that asks for nothing to
    /// change, so sending it to the live backend again is harmless.
    private static func isSafe(_ key: String) -> Bool {
        let method = key.prefix { $0 != " " }
        return ["GET", "HEAD", "OPTIONS", "TRACE"].contains(method)
    }

    /// The folder's manifest, or the entry saying why it cannot be read. (Read apart from `check`: with it inline,
    /// Swift 6.3.1's optimizer crashed splitting `check`'s coroutine in release builds.)
    @inline(never)
    private static func manifest(in directory: URL) -> (Cassette?, FixtureDrift?) {
        let url = directory.appendingPathComponent(FixtureTransport.manifestName)
        do {
            return (try Cassette.parse(try FileContents.read(url)), nil)
        } catch {
            let drift = FixtureDrift(
                request: "(manifest)", file: FixtureTransport.manifestName,
                changes: [.failed("the manifest cannot be read: \(error)")])
            return (nil, drift)
        }
    }

    /// Every recorded request in key order: its name in the report (`#2` for a route's second step), key and step.
    private static func requests(of cassette: Cassette) -> [(String, String, RecordedStep)] {
        cassette.routes.keys.sorted().flatMap { key in
            let steps = cassette.routes[key] ?? []
            return steps.enumerated().map { index, step in
                (steps.count > 1 ? "\(key) #\(index + 1)" : key, key, step)
            }
        }
    }

    private static func compare(
        _ step: RecordedStep, key: String, directory: URL, transport: any HTTPTransport, baseURL: URL,
        headers: HTTPFields
    ) async -> [FixtureDrift.Change] {
        guard let parts = FixtureTransport.Manifest.methodAndTarget(of: key),
            let url = URL(string: baseURL.absoluteString.trimmingSuffix("/") + parts[1])
        else {
            return [.failed("the manifest key \"\(key)\" is not METHOD /path")]
        }
        let body = step.requestFile.flatMap { try? FileContents.read(directory.appendingPathComponent($0)) }
        var fields = headers
        if let body, JSONText.value(body) != nil, !fields.contains(.contentType) {
            fields[.contentType] = "application/json"
        }
        let request = HTTPRequest(
            method: HTTPMethod(rawValue: parts[0]), url: url, headerFields: fields,
            body: body.map { .data($0) } ?? .empty)
        let live: Data
        let head: HTTPResponse
        do {
            let (response, stream) = try await transport.send(request)
            head = response
            live = try await stream.collect(upTo: 64 * 1024 * 1024)
        } catch {
            return [.failed("\(error)")]
        }
        // Another status answers with another body: its shape says nothing more.
        if head.status.code != step.status { return [.status(recorded: step.status, live: head.status.code)] }
        let recorded =
            step.inlineBody ?? step.file.flatMap { try? FileContents.read(directory.appendingPathComponent($0)) }
        guard let recorded, !recorded.isEmpty, let old = JSONText.value(recorded) else { return [] }
        guard let new = JSONText.value(live) else { return [.notJSON] }
        return FixtureDrift.compare(old, new)
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
