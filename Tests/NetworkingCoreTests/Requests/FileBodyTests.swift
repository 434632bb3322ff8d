import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

@Suite struct FileBodyTests {
    struct Receipt: Codable, Sendable, Equatable { let ok: Bool }

    static func client(_ transport: MockTransport) throws -> NetworkClient {
        NetworkClient(baseURL: URL(string: "https://api.example.com")!, transport: transport)
    }

    @Test func aFileBodyReachesTheTransportAsAFileWithItsContentType() async throws {
        // Given
        let file = try TestFiles.temporaryFile(Data("hello file".utf8))
        defer { try? FileManager.default.removeItem(at: file) }
        let transport = MockTransport().stub(.post, "/files", .success(Receipt(ok: true)))
        // When
        _ = try await Self.client(transport).send(NetworkRequest<Receipt>(.post, path: "/files", body: .file(file)))
        _ = try await Self.client(transport).send(
            NetworkRequest<Receipt>(.post, path: "/files", body: .file(file, contentType: "text/plain")))
        // Then
        let sent = transport.requests(to: .post, "/files")
        #expect(sent.map(\.request.body) == [HTTPRequest.Body.file(file), .file(file)])
        #expect(sent.map { $0.header(.contentType) } == ["application/octet-stream", "text/plain"])
        #expect(sent.first?.bodyText == "hello file")
    }

    @Test func aMissingFileFailsBeforeAnyIOWithAnErrorNamingThePathAndTheRequest() async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString)")
        let transport = MockTransport().stub(.post, "/files", .success(Receipt(ok: true)))
        let error = try await expectNetworkError {
            try await Self.client(transport).send(
                NetworkRequest<Receipt>(.post, path: "/files", body: .file(missing)))
        }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.requestName == "POST /files")
        #expect(error?.message.contains("\(missing.path)\" does not exist") == true)
        #expect(transport.requests.isEmpty)
    }

    @Test func aDirectoryOrANonFileURLIsRefusedBeforeAnyIO() async throws {
        let transport = MockTransport().stub(.post, "/files", .success(Receipt(ok: true)))
        let directory = FileManager.default.temporaryDirectory
        let notAFile = URL(string: "https://example.com/file.bin")!
        for (url, reason) in [(directory, "is a directory"), (notAFile, "is not a file: URL")] {
            let error = try await expectNetworkError {
                try await Self.client(transport).send(
                    NetworkRequest<Receipt>(.post, path: "/files", body: .file(url)))
            }
            #expect(error?.kind == .invalidRequest)
            #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func aFileBodyOnAGETIsRefused() async throws {
        let file = try TestFiles.temporaryFile(Data("x".utf8))
        defer { try? FileManager.default.removeItem(at: file) }
        let transport = MockTransport().stub(.get, "/files", .success(Receipt(ok: true)))
        let error = try await expectNetworkError {
            try await Self.client(transport).send(NetworkRequest<Receipt>(.get, path: "/files", body: .file(file)))
        }
        #expect(error?.kind == .invalidRequest)
        #expect(transport.requests.isEmpty)
    }

    @Test func aFileBodyIsReplayableAndNeverEmptyButHasNoInMemoryBytes() throws {
        let body = HTTPRequest.Body.file(URL(fileURLWithPath: "/tmp/x"))
        #expect(body.isReplayable)
        #expect(!body.isEmpty)
        #expect(body.data == nil)
    }

    @Test func theTransportAloneRefusesAMissingFileWithoutSending() async throws {
        var request = HTTPRequest(method: .post, url: URL(string: "http://127.0.0.1:9/upload")!)
        request.body = .file(URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString)"))
        await #expect(throws: TransportError.self) {
            _ = try await URLSessionTransport().send(request)
        }
    }

    @Test func uploadReportsTheFinalProgressAtTheFileSize() async throws {
        let file = try TestFiles.temporaryFile(Data(repeating: 7, count: 1000))
        defer { try? FileManager.default.removeItem(at: file) }
        let transport = MockTransport().stub(.put, "/files", .success(Receipt(ok: true)))
        let call = try Self.client(transport).upload(NetworkRequest<Receipt>(.put, path: "/files", body: .file(file)))
        #expect(try await call.value == Receipt(ok: true))
        var updates: [TransferProgress] = []
        for await progress in call.progress { updates.append(progress) }
        #expect(updates.last == TransferProgress(completedBytes: 1000, expectedBytes: 1000))
    }

    @Test func theFoundationRequestStreamsAFileAndCarriesAFormsBytes() throws {
        let file = try TestFiles.temporaryFile(Data("abc".utf8))
        defer { try? FileManager.default.removeItem(at: file) }
        var request = HTTPRequest(method: .post, url: URL(string: "https://api.example.com/up")!)
        request.body = .file(file)
        let stream = try #require(request.urlRequest?.httpBodyStream)
        stream.open()
        defer { stream.close() }
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(stream.read(&buffer, maxLength: 16) == 3)
        #expect(Array(buffer[..<3]) == Array("abc".utf8))
        var generator = BehaviorFakes.SeededGenerator(seed: 1)
        var form = MultipartFormData(using: &generator)
        form.appendFile(file, name: "f")
        request.body = form.body
        // A produced body (a multipart form with a file) has no form a URLRequest can hold: it is left out.
        #expect(request.urlRequest?.httpBody == nil && request.urlRequest?.httpBodyStream == nil)
    }
}
