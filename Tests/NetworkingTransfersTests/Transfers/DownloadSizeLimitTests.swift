import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

/// Answers with a body whose producer has already yielded every chunk and finished.
private struct CompleteBodyTransport: HTTPTransport {
    let chunks: [Data]

    func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
        (HTTPResponse(status: .ok), HTTPBody.complete(chunks))
    }
}

/// `download(_:to:maximumSize:)`: no cap unless set; a cap refuses an announced size and stops a growing body.
@Suite struct DownloadSizeLimitTests {
    private static func download(
        _ response: MockResponse, maximumSize: Int64?
    ) async throws -> (Result<DownloadResult, any Error>, URL) {
        let folder = try DownloadTests.folder()
        let destination = folder.appendingPathComponent("file.bin")
        let mock = MockTransport().stub(.get, "/file", response)
        let call = try makeClient(transport: mock).download(
            NetworkRequest<Data>(path: "/file"), to: destination, maximumSize: maximumSize)
        do {
            return (.success(try await call.value), destination)
        } catch {
            return (.failure(error), destination)
        }
    }

    private static let body = DownloadTests.bytes(0..<10_000)
    private static let chunks = DownloadTests.chunks(of: body, size: 1000)

    @Test func aResponseAnnouncingMoreThanTheCapFailsBeforeWritingAndKeepsNothing() async throws {
        let (result, destination) = try await Self.download(
            .streamed(Self.chunks, headers: [.contentLength: "10000"]), maximumSize: 5000)
        defer { try? FileManager.default.removeItem(at: destination.deletingLastPathComponent()) }
        guard case .failure(let error as NetworkError) = result else {
            Issue.record("expected a NetworkError, got \(result)")
            return
        }
        #expect(error.kind == .transport(.responseTooLarge))
        #expect(error.message.contains("announces 10000 bytes; its maximum size is 5000 bytes"))
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(!FileManager.default.fileExists(atPath: destination.path + ".partial"))
    }

    @Test func aBodyGrowingPastTheCapWithoutALengthIsStoppedAndDiscarded() async throws {
        let (result, destination) = try await Self.download(.streamed(Self.chunks), maximumSize: 4500)
        defer { try? FileManager.default.removeItem(at: destination.deletingLastPathComponent()) }
        guard case .failure(let error as NetworkError) = result else {
            Issue.record("expected a NetworkError, got \(result)")
            return
        }
        #expect(error.kind == .transport(.responseTooLarge))
        #expect(error.message.contains("grew past 4500 bytes"))
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(!FileManager.default.fileExists(atPath: destination.path + ".partial"))
    }

    /// The interleaving a serial test run hit (the call never returned): the producer has buffered every chunk and
    /// finished before the download starts writing, and a buffered chunk passes the cap.
    @Test(.timeLimit(.minutes(1))) func aCapPassedByABodyAlreadyCompleteFailsAndDoesNotHang() async throws {
        let transport = CompleteBodyTransport(chunks: Self.chunks)
        let folder = try DownloadTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("file.bin")
        let call = try makeClient(transport: transport).download(
            NetworkRequest<Data>(path: "/file"), to: destination, maximumSize: 4500)
        do {
            let result = try await call.value
            Issue.record("expected the cap to stop the download, got \(result.byteCount) bytes")
        } catch let error as NetworkError {
            #expect(error.kind == .transport(.responseTooLarge))
            #expect(error.message.contains("grew past 4500 bytes"))
        }
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(!FileManager.default.fileExists(atPath: destination.path + ".partial"))
    }

    @Test func aBodyWithinTheCapOrWithoutOneArrivesWhole() async throws {
        for cap in [Int64(10_000), nil] {
            let (result, destination) = try await Self.download(.streamed(Self.chunks), maximumSize: cap)
            defer { try? FileManager.default.removeItem(at: destination.deletingLastPathComponent()) }
            #expect(try result.get().byteCount == 10_000)
            #expect(try Data(contentsOf: destination) == Self.body)
        }
    }
}
