import Foundation
import Testing

@testable import Networking
@testable import NetworkingHTTP
@testable import NetworkingCore
@testable import NetworkingAuth
@testable import NetworkingResilience
@testable import NetworkingTransfers
@testable import NetworkingCurl
@testable import NetworkingTesting

/// Every public error type reads the same through `localizedDescription` as through its `description`: an app that
/// shows `error.localizedDescription` (as UIKit and SwiftUI alerts do) gets the sentence, never Foundation's
/// "The operation could not be completed. (… error 1.)".
@Suite struct PublicErrorTextTests {
    /// One value of each public error type, by its name as declared.
    static let samples: [(name: String, error: any Error & CustomStringConvertible)] = [
        ("NetworkError", NetworkError(.timedOut(.call), requestName: "GET /x", message: "the deadline passed")),
        ("TransportError", TransportError(.cannotConnect, "refused")),
        ("BehaviorConflictError", BehaviorConflictError(.duplicate(.retry, ["RetryBehavior", "RetryBehavior"]))),
        (
            "BehaviorSettingsError",
            BehaviorSettingsError(settings: "S", setting: "s", value: "0", requirement: "at least 1")
        ),
        ("ConsumedError", HTTPBody.ConsumedError()),
        ("SecondReaderError", HTTPBody.SecondReaderError()),
        ("TooLargeError", HTTPBody.TooLargeError(limit: 10)),
        ("RateLimitedError", RateLimitedError(key: "h", wait: .seconds(2), allowed: .seconds(1))),
        (
            "ConcurrencyLimitExceededError",
            ConcurrencyLimitExceededError(partition: "h", maximumInFlight: 1, maximumQueueLength: 0)
        ),
        ("CircuitOpenError", CircuitOpenError(key: "h", phase: .open, retryAfter: .seconds(3))),
        ("OnlyIfCachedMiss", OnlyIfCachedMiss(reason: "nothing is stored")),
        ("MissingHTTPCacheError", MissingHTTPCacheError(policy: .offline)),
        ("DownloadFileError", DownloadFileError(operation: .write, path: "/tmp/x", reason: "disk full")),
        ("EndOfStream", ServerSentEventSource.EndOfStream()),
        ("EventStreamContentTypeError", EventStreamContentTypeError(received: "text/html", requestName: "GET /e")),
        ("TokenRefreshError", TokenRefreshError.refreshLimitReached(limit: 3, window: .seconds(60))),
        ("InvalidCredential", AuthorizationScheme.InvalidCredential(reason: "a user name may not contain ':'")),
        ("CurlUnavailableError", CurlUnavailableError(library: "libcurl-missing", reason: "not found")),
        ("MissingBody", RecordedRequest.MissingBody(request: "GET /x")),
        ("DecodingError", RecordedFormPart.DecodingError(reason: "no boundary")),
        ("UnmatchedRequestError", UnmatchedRequestError(request: "GET /x", stubs: ["GET /y"])),
        (
            "FixtureError",
            FixtureError(.missingFixture, request: "GET /x", file: "x.GET.json", directory: "/f", reason: "")
        ),
        (
            "WebSocketError",
            WebSocketError(.protocolViolation, message: "a frame has the reserved opcode 3", closeCode: .protocolError)
        ),
        (
            "RecordingError",
            RecordingError(.notRecorded, request: "GET /x", directory: "/f", reason: "no recording matches")
        ),
    ]

    @Test(arguments: samples.map(\.name))
    func localizedDescriptionIsTheDescription(name: String) throws {
        let error = try #require(Self.samples.first { $0.name == name }?.error)
        #expect(!error.description.isEmpty)
        #expect(error.localizedDescription == error.description)
        #expect((error as? any LocalizedError)?.errorDescription == error.description)
    }

    /// Every `public struct`, `enum` or `class` under Sources/ that is an `Error` (directly, or through
    /// `PolicyRejection`) is in ``samples``: a new error type without a readable `localizedDescription` fails here.
    @Test func everyPublicErrorTypeIsWalked() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")
        let files =
            FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        let declaration = try Regex(
            #"public (?:struct|enum|final class|class) (\w+)(?:<[^>]*>)?: ([^{]*)\{"#)
        var found: Set<String> = []
        for file in files where !file.path.contains("/Benchmarks/") && !file.path.contains("/Demo/") {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: declaration) {
                let name = String(match.output[1].substring ?? "")
                let conformances = (match.output[2].substring ?? "").split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                if conformances.contains("Error") || conformances.contains("PolicyRejection") { found.insert(name) }
            }
        }
        #expect(found.count >= 20)
        #expect(
            found.subtracting(Self.samples.map(\.name)).isEmpty,
            "not walked: \(found.subtracting(Self.samples.map(\.name)))")
    }
}
