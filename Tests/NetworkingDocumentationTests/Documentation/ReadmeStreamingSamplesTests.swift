// swift-format-ignore-file
import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

// The streaming samples of README.md, verbatim (indentation aside); the suite checks README.md still shows them.

func serverSentEventsSample() -> [ServerSentEvent] {
var decoder = ServerSentEventDecoder()
let events = decoder.decode(Data("id: 7\nevent: tick\ndata: a\ndata: b\n\n".utf8))
// events == [ServerSentEvent(event: "tick", data: "a\nb", id: "7")]
return events
}

// The upload, multipart and streamed-body samples, in a type of their own so that their `Receipt` is theirs: the
// article's top-level functions are its methods here.
struct ReadmeUploadSample {
struct Receipt: Codable, Equatable, Sendable { let id: Int }

func uploadTheMovie(client: NetworkClient, movieURL: URL) async throws -> Receipt {
    let call = client.upload(NetworkRequest<Receipt>(.put, path: "/videos/42", body: .file(movieURL)))
    for await progress in call.progress { print(progress.completedBytes, progress.expectedBytes ?? -1) }
    let receipt = try await call.value
    return receipt
}

func reportRequest(reportURL: URL) -> NetworkRequest<Receipt> {
    var form = MultipartFormData()
    form.append("Ada", name: "author")
    form.appendFile(reportURL, name: "report", filename: "report.txt", contentType: "text/plain")
    let request = NetworkRequest<Receipt>(.post, path: "/reports", body: .multipart(form))
    return request
}

func logsRequest() -> NetworkRequest<Receipt> {
    let lines = HTTPBody { AsyncThrowingStream { continuation in
        for line in ["one\n", "two\n"] { continuation.yield(Data(line.utf8)) }
        continuation.finish()
    } }
    let request = NetworkRequest<Receipt>(.put, path: "/logs/today", body: .stream(lines, contentType: "text/plain"))
    return request
}
}

@Suite struct ReadmeStreamingSamplesTests {
    static func readmeBlock(startingWith prefix: String) throws -> [String] {
        let root = DocumentSamples.root
        let readme = try String(contentsOf: root.appendingPathComponent("Sources/Networking/Networking.docc/StreamingAndTransfers.md"), encoding: .utf8)
        let block = try #require(
            readme.components(separatedBy: "```swift\n").first { DocumentSamples.lines(of: $0).first?.hasPrefix(prefix) == true }?
                .components(separatedBy: "\n```").first)
        return DocumentSamples.lines(of: block)
    }

    static func isCompiledHere(_ sample: [String]) throws -> Bool {
        let here = DocumentSamples.lines(of: try String(contentsOfFile: #filePath, encoding: .utf8))
        return here.indices.contains { start in
            start + sample.count <= here.count && Array(here[start..<start + sample.count]) == sample
        }
    }

    @Test func theServerSentEventsSampleIsCompiledHereAndDoesWhatItsCommentSays() throws {
        let sample = try Self.readmeBlock(startingWith: "var decoder = ServerSentEventDecoder()")
        #expect(sample.count == 3)
        #expect(try Self.isCompiledHere(sample))
        #expect(serverSentEventsSample() == [ServerSentEvent(event: "tick", data: "a\nb", id: "7")])
    }

    @Test func theUploadSampleIsCompiledHereAndSendsTheFile() async throws {
        let sample = try Self.readmeBlock(startingWith: "struct Receipt")
        #expect(sample.count == 7)
        #expect(try Self.isCompiledHere(sample))
        let movie = try TestFiles.temporaryFile(Data(repeating: 1, count: 4096), name: "movie")
        defer { try? FileManager.default.removeItem(at: movie) }
        let transport = MockTransport().stub(.put, "/videos/42", .success(ReadmeUploadSample.Receipt(id: 42)))
        let client = NetworkClient(baseURL: URL(string: "https://api.example.com")!, transport: transport)
        let receipt = try await ReadmeUploadSample().uploadTheMovie(client: client, movieURL: movie)
        #expect(receipt == ReadmeUploadSample.Receipt(id: 42))
        #expect(transport.requests(to: .put, "/videos/42").first?.body == Data(repeating: 1, count: 4096))
    }

    @Test func theMultipartSampleIsCompiledHereAndTheMockDecodesItsParts() async throws {
        let sample = try Self.readmeBlock(startingWith: "func reportRequest(")
        #expect(sample.count == 7)
        #expect(try Self.isCompiledHere(sample))
        let report = try TestFiles.temporaryFile(Data("quarterly".utf8), name: "report")
        defer { try? FileManager.default.removeItem(at: report) }
        let transport = MockTransport().stub(.post, "/reports", .success(ReadmeUploadSample.Receipt(id: 1)))
        let client = NetworkClient(baseURL: URL(string: "https://api.example.com")!, transport: transport)
        _ = try await client.send(ReadmeUploadSample().reportRequest(reportURL: report))
        let parts = try #require(transport.requests(to: .post, "/reports").first).formParts()
        #expect(parts.map(\.name) == ["author", "report"])
        #expect(parts.map(\.filename) == [nil, "report.txt"])
        #expect(parts.map(\.contentType) == [nil, "text/plain"])
        #expect(parts.map(\.text) == ["Ada", "quarterly"])
    }

    @Test func theStreamSampleIsCompiledHereAndRestartsForEveryAttempt() async throws {
        let sample = try Self.readmeBlock(startingWith: "func logsRequest(")
        #expect(sample.count == 8)
        #expect(try Self.isCompiledHere(sample))
        guard case .stream(let stream, let contentType) = ReadmeUploadSample().logsRequest().body else {
            Issue.record("the sample's body is not a stream")
            return
        }
        #expect(contentType == "text/plain")
        #expect(stream.isReplayable)
        for _ in 0..<2 {
            var text = ""
            for try await chunk in stream { text += String(decoding: chunk, as: UTF8.self) }
            #expect(text == "one\ntwo\n")
        }
    }
}
