import Foundation
import NetworkingTesting
import Testing

@testable import Networking
@testable import NetworkingHTTP
@testable import NetworkingCore
@testable import NetworkingTLS
@testable import NetworkingURLSession
@testable import NetworkingAuth
@testable import NetworkingResilience
@testable import NetworkingHTTPCache
@testable import NetworkingCookies
@testable import NetworkingObservability
@testable import NetworkingTransfers
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `LoggingBehavior` alone: `intercept` driven with fake `next` closures, a recording sink and a `TestClock`.
@Suite struct LoggingBehaviorTests {
    @Test func logsTheRequestGoingOutAndTheResponseWithStatusDurationAndSize() async throws {
        // Given
        let sink = RecordingSink()
        let clock = TestClock()
        let behavior: LoggingBehavior = .logging(to: sink.sink, clock: clock)
        let request = HTTPRequest(url: URL(string: "https://api.example.test/v1/users?page=2")!)
        let context = RequestContext()
        // When
        let (response, body) = try await behavior.intercept(request, context: context) { request in
            clock.advance(by: .milliseconds(245))
            return BehaviorFakes.response(to: request, body: Data(repeating: 65, count: 1024))
        }
        // Then
        #expect(body.data?.count == 1024 && response.status.code == 200)
        let tag = "[Networking \(context.callID.uuidString.prefix(8))]"
        #expect(
            sink.lines == [
                "\(tag) GET https://api.example.test/v1/users?page=2",
                "\(tag) 200 GET https://api.example.test/v1/users?page=2 in 245 ms, 1024 bytes",
            ])
    }

    @Test func theStartLineCanBeTurnedOff() async throws {
        let sink = RecordingSink()
        let behavior = LoggingBehavior(sink: sink.sink, logsStart: false, clock: TestClock())
        _ = try await behavior.intercept(BehaviorFakes.request, context: RequestContext(), next: BehaviorFakes.ok)
        #expect(sink.lines.count == 1)
        #expect(sink.lines.first?.contains("200 GET https://api.example.test/v1/items in 0 ms, 0 bytes") == true)
    }

    @Test func anUnacceptableStatusIsLoggedWithKindMessageAndSizeAndRethrownUnchanged() async throws {
        let sink = RecordingSink()
        let clock = TestClock()
        let behavior = LoggingBehavior(sink: sink.sink, clock: clock)
        let error = try await expectNetworkError {
            try await behavior.intercept(BehaviorFakes.request, context: RequestContext()) { request in
                clock.advance(by: .milliseconds(80))
                throw BehaviorFakes.unacceptable(request, status: 503, body: Data(#"{"error":"busy"}"#.utf8))
            }
        }
        #expect(error?.kind == .unacceptableStatus(503))
        let line = try #require(sink.lines.last)
        #expect(
            line.hasSuffix(
                "failed GET https://api.example.test/v1/items 503 in 80 ms: unacceptableStatus(503): "
                    + "the server answered 503, 16 bytes"))
        #expect(!line.contains("busy"), "bodies are off by default")
    }

    @Test(arguments: [("If-None-Match", "\"v1\""), ("If-Modified-Since", "Mon, 23 Nov 2026 10:00:00 GMT")])
    func a304ToAConditionalRequestIsLoggedAsAnAnswerAndStillRethrown(name: String, value: String) async throws {
        let sink = RecordingSink()
        let behavior = LoggingBehavior(sink: sink.sink, clock: TestClock())
        var request = BehaviorFakes.request
        request.headerFields[HTTPField.Name(name)] = value
        let error = try await expectNetworkError {
            try await behavior.intercept(request, context: RequestContext()) { request in
                throw BehaviorFakes.unacceptable(request, status: 304)
            }
        }
        #expect(error?.kind == .unacceptableStatus(304))
        #expect(
            sink.lines.last?.hasSuffix("] 304 GET https://api.example.test/v1/items in 0 ms, 0 bytes (not modified)")
                == true)
        // Without a condition, a 304 is an unexpected answer, logged as a failure.
        _ = try await expectNetworkError {
            try await behavior.intercept(BehaviorFakes.request, context: RequestContext()) { request in
                throw BehaviorFakes.unacceptable(request, status: 304)
            }
        }
        #expect(sink.lines.last?.contains("failed GET https://api.example.test/v1/items 304") == true)
    }

    @Test func anyOtherErrorIsLoggedWithItsTypeAndRethrownUnchanged() async throws {
        let sink = RecordingSink()
        let behavior = LoggingBehavior(sink: sink.sink, clock: TestClock())
        await #expect(throws: TestError("disk full")) {
            try await behavior.intercept(BehaviorFakes.request, context: RequestContext()) { _ in
                throw TestError("disk full")
            }
        }
        #expect(sink.lines.last?.contains("failed GET https://api.example.test/v1/items in 0 ms: TestError:") == true)
    }

    @Test func cancellationIsLoggedAndTheCancellationErrorRethrown() async throws {
        let sink = RecordingSink()
        let clock = TestClock()
        let behavior = LoggingBehavior(sink: sink.sink, clock: clock)
        let call = Task {
            try await behavior.intercept(BehaviorFakes.request, context: RequestContext()) { _ in
                clock.advance(by: .seconds(1.2))
                await BehaviorFakes.suspendUntilCancelled()
                throw CancellationError()
            }
        }
        try await BehaviorFakes.waitUntil { clock.now() > .zero }
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(sink.lines.last?.hasSuffix("cancelled GET https://api.example.test/v1/items after 1200 ms") == true)
    }

    @Test(arguments: [true, false])
    func secretsNeverAppearInAnyLineOnSuccessOrFailure(succeeds: Bool) async throws {
        // Given: secrets in every place a request and its outcome can hold them, with headers and bodies logged.
        let sink = RecordingSink()
        let behavior = LoggingBehavior(
            sink: sink.sink, redaction: Redaction(headerNames: ["X-API-Key"], queryParameterNames: ["Signature"]),
            headers: true, bodies: .upTo(4096), clock: TestClock())
        var request = HTTPRequest(url: secretURL)
        request.method = "POST"
        request.headerFields["Authorization"] = "Bearer \(Secret.bearer)"
        request.headerFields["Proxy-Authorization"] = "Basic \(Secret.proxy)"
        request.headerFields["Cookie"] = "session=\(Secret.cookie)"
        request.headerFields["X-Api-Key"] = Secret.apiKey
        request.headerFields[sensitive: "X-Device-Secret"] = Secret.marked
        request.headerFields["Content-Type"] = "application/x-www-form-urlencoded"
        request.body = .data(Data("user=ada&password=\(Secret.formPassword)&remember=1".utf8))
        let echo = Data(#"{"echo":"\#(Secret.bearer)","ok":true}"#.utf8)
        // When
        _ = try? await behavior.intercept(request, context: RequestContext()) { request in
            let headers = ["Set-Cookie": "sid=\(Secret.setCookie); HttpOnly", "Content-Type": "application/json"]
            guard succeeds else {
                throw NetworkError(
                    .unacceptableStatus(401), requestName: "POST /login",
                    message: "the server refused token \(Secret.bearer) for device \(Secret.marked)",
                    sentRequest: request,
                    response: BehaviorFakes.response(to: request, status: 401, headers: HTTPFields(headers)).0,
                    body: echo)
            }
            return BehaviorFakes.response(to: request, body: echo, headers: HTTPFields(headers))
        }
        // Then
        let lines = sink.lines
        #expect(lines.count == 2)
        for line in lines {
            for secret in Secret.all {
                #expect(!line.contains(secret), "\(secret) leaked in: \(line)")
            }
            #expect(line.contains("https://api.example.test/v1/login?page=2&token=<redacted>&Signature=<redacted>"))
        }
        let start = try #require(lines.first)
        #expect(start.contains(#"Authorization="<redacted>""#))
        #expect(start.contains(#"Cookie="<redacted>""#))
        #expect(start.contains(#"X-Api-Key="<redacted>""#))
        #expect(start.contains(#"Proxy-Authorization="<redacted>""#))
        #expect(start.contains("body: user=ada&password=<redacted>&remember=1"))
        #expect(lines.last?.contains(#"Set-Cookie="<redacted>""#) == true)
        #expect(lines.last?.contains(#""ok":true"#) == true)
    }

    @Test func bodiesAreOffByDefaultAndTruncatedToTheLimitWhenOn() async throws {
        let body = Data(String(repeating: "0123456789", count: 10).utf8)
        var request = BehaviorFakes.request
        request.method = "PUT"
        request.body = .data(body)
        let next: NextHandler = { request in BehaviorFakes.response(to: request, body: Data("short".utf8)) }

        let quiet = RecordingSink()
        _ = try await LoggingBehavior(sink: quiet.sink, clock: TestClock()).intercept(
            request, context: RequestContext(), next: next)
        #expect(quiet.lines.allSatisfy { !$0.contains("body:") && !$0.contains("0123") && !$0.contains("short") })

        let verbose = RecordingSink()
        _ = try await LoggingBehavior(sink: verbose.sink, bodies: .upTo(12), clock: TestClock()).intercept(
            request, context: RequestContext(), next: next)
        #expect(verbose.lines.first?.hasSuffix(" body: 012345678901… (100 bytes)") == true)
        #expect(verbose.lines.last?.hasSuffix(" body: short") == true)
    }

    @Test func oddCharactersInHeadersMessagesAndBodiesCanNeverBreakALine() async throws {
        // Given: values a client check would refuse later, but the logger sees first.
        let sink = RecordingSink()
        var request = BehaviorFakes.request
        request.method = "POST"
        request.headerFields["X-Odd"] = "tab\there \"quoted\" back\\slash é 🚀 red\u{2028}sep"
        request.body = .data(Data("line1\nline2\0end".utf8))
        let behavior = LoggingBehavior(sink: sink.sink, headers: true, bodies: .upTo(100), clock: TestClock())
        // When
        _ = try? await behavior.intercept(request, context: RequestContext()) { request in
            throw NetworkError(.invalidRequest, requestName: "POST /items", message: "bad\r\nInjected: yes")
        }
        // Then
        #expect(sink.lines.count == 2)
        for line in sink.lines {
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0.value == 0x2028 })
        }
        let start = try #require(sink.lines.first)
        #expect(start.contains(#"X-Odd="tab\there \"quoted\" back\\slash é 🚀 red\u{2028}sep""#))
        #expect(start.contains(#"body: line1\nline2\u{0}end"#))
        #expect(sink.lines.last?.hasSuffix(#"invalidRequest: bad\r\nInjected: yes"#) == true)
    }

    @Test func aURLWithAUserAndPasswordCannotEvenBecomeARequestSoItIsNeverLogged() async throws {
        let request = HTTPRequest(url: URL(string: "https://ada:\(Secret.userPassword)@api.example.test/v1/me#frag")!)
        #expect(request.invalidReason?.contains("user name or password") == true)
        #expect(!request.description.contains(Secret.userPassword))
        #expect(request.url?.absoluteString.contains(Secret.userPassword) != true)
    }

    @Test func aSlowSinkDelaysTheCallButTheCallStillLogsAndCompletes() async throws {
        // Given: a sink that holds the first line until the test opens a gate.
        let gate = Gate()
        let received = AsyncStream<String>.makeStream()
        let lines = LockedBox<[String]>([])
        let slowSink = LogSink { line in
            received.continuation.yield(line)
            if lines.withLock({ $0.isEmpty }) { await gate.wait() }
            lines.withLock { $0.append(line) }
        }
        let sends = LockedBox(0)
        let behavior = LoggingBehavior(sink: slowSink, clock: TestClock())
        // When
        let call = Task {
            try await behavior.intercept(BehaviorFakes.request, context: RequestContext()) { request in
                sends.withLock { $0 += 1 }
                return BehaviorFakes.response(to: request, status: 201)
            }
        }
        var iterator = received.stream.makeAsyncIterator()
        let first = await iterator.next()
        // Then: the sink runs inline, so nothing was sent while it held the line.
        #expect(first?.contains("GET https://api.example.test/v1/items") == true)
        #expect(sends.current == 0)
        gate.open()
        let (response, _) = try await call.value
        #expect(response.status.code == 201)
        #expect(sends.current == 1)
        #expect(lines.current.count == 2)
    }

    @Test func aSinkThatDiscardsGetsNoWorkAndTheRequestPassesUnchanged() async throws {
        // Given a discarding sink and a clock that counts its readings
        let clock = CountingClock()
        let behavior: LoggingBehavior = .logging(to: .discard, clock: clock)
        var request = BehaviorFakes.request
        request.headerFields[.authorization] = "Bearer abcdef"
        // When
        let seen = LockedBox<HTTPRequest?>(nil)
        _ = try await behavior.intercept(request, context: RequestContext()) { passed in
            seen.withLock { $0 = passed }
            return BehaviorFakes.response(to: passed)
        }
        // Then nothing was measured and the request went on as it came
        #expect(clock.readings.withLock { $0 } == 0)
        #expect(seen.withLock { $0 } == request)
    }

    @Test(arguments: [60, 62, 63, 64])
    func aSecretEchoedAcrossTheBodyCutShowsNoPartOfIt(offset: Int) async throws {
        let sink = RecordingSink()
        let behavior: LoggingBehavior = .logging(to: sink.sink, bodies: .upTo(64), clock: TestClock())
        let token = "tok-0123456789abcdefghij"
        var request = BehaviorFakes.request
        request.headerFields[.authorization] = "Bearer \(token)"
        let body = Data((String(repeating: "x", count: offset) + token + "tail").utf8)
        _ = try await behavior.intercept(request, context: RequestContext()) { passed in
            BehaviorFakes.response(to: passed, body: body)
        }
        let line = try #require(sink.lines.last)
        for length in 4...token.count { #expect(!line.contains(token.prefix(length)), "\(line)") }
        #expect(line.contains("<redacted>") == (offset < 64))
    }
}

private enum Secret {
    static let bearer = "bearer-S3CR3T-0001"
    static let proxy = "proxy-S3CR3T-0002"
    static let cookie = "cookie-S3CR3T-0003"
    static let apiKey = "apikey-S3CR3T-0004"
    static let queryToken = "query-S3CR3T-0005"
    static let signature = "sig-S3CR3T-0006"
    static let formPassword = "form-S3CR3T-0007"
    static let setCookie = "setcookie-S3CR3T-0008"
    static let userPassword = "userinfo-S3CR3T-0009"
    static let marked = "marked-S3CR3T-0010"
    static let all = [bearer, proxy, cookie, apiKey, queryToken, signature, formPassword, setCookie, marked]
}

private let secretURL = URL(
    string: "https://api.example.test/v1/login?page=2&token=\(Secret.queryToken)&Signature=\(Secret.signature)")!

/// A sink that keeps every line.
final class RecordingSink: Sendable {
    private let storage = LockedBox<[String]>([])
    var lines: [String] { storage.current }
    func clear() { storage.withLock { $0 = [] } }
    var sink: LogSink {
        LogSink { [storage] line in storage.withLock { $0.append(line) } }
    }
}

/// A clock that counts how often it is read, to show that a behavior did no timing work.
private struct CountingClock: NetworkClock {
    let readings = LockedBox(0)
    func now() -> Duration {
        readings.withLock { $0 += 1 }
        return .zero
    }
    func date() -> Date { Date(timeIntervalSince1970: 0) }
    func sleep(for duration: Duration) async throws {}
}
