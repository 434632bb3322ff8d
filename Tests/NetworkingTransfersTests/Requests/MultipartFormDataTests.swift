import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

@Suite struct MultipartFormDataTests {
    struct Receipt: Codable, Sendable, Equatable { let ok: Bool }

    static func seededForm() -> MultipartFormData {
        var generator = BehaviorFakes.SeededGenerator(seed: 7)
        return MultipartFormData(using: &generator)
    }

    @Test func encodesFieldsDataAndFilePartsExactly() async throws {
        // Given
        let file = try TestFiles.temporaryFile(Data("file body".utf8), name: "notes")
        defer { try? FileManager.default.removeItem(at: file) }
        var form = Self.seededForm()
        form.append("Ada", name: "author")
        form.append(Data([0, 1, 2]), name: "blob", filename: "b.bin", contentType: "application/x-test")
        form.appendFile(file, name: "notes", contentType: "text/plain")
        let b = form.boundary
        // When
        let (recorded, _) = try await MultipartRecording.send(form)
        // Then
        let expected =
            "--\(b)\r\nContent-Disposition: form-data; name=\"author\"\r\n\r\nAda\r\n"
            + "--\(b)\r\nContent-Disposition: form-data; name=\"blob\"; filename=\"b.bin\"\r\n"
            + "Content-Type: application/x-test\r\n\r\n\u{0}\u{1}\u{2}\r\n"
            + "--\(b)\r\nContent-Disposition: form-data; name=\"notes\"; filename=\"\(file.lastPathComponent)\"\r\n"
            + "Content-Type: text/plain\r\n\r\nfile body\r\n--\(b)--\r\n"
        #expect(recorded?.bodyText == expected)
        #expect(recorded?.header(.contentType) == "multipart/form-data; boundary=\(b)")
    }

    @Test func theRecordedBodyDecodesBackIntoItsParts() async throws {
        let file = try TestFiles.temporaryFile(Data(repeating: 0x2D, count: 5000), name: "dashes")
        defer { try? FileManager.default.removeItem(at: file) }
        var form = MultipartFormData()
        form.append("", name: "empty")
        form.append("line one\r\nline two", name: "text")
        form.appendFile(file, name: "upload", filename: "dashes.txt", contentType: "text/plain")
        let (recorded, _) = try await MultipartRecording.send(form)
        let parts = try #require(recorded).formParts()
        #expect(
            parts == [
                RecordedFormPart(name: "empty", data: Data()),
                RecordedFormPart(name: "text", data: Data("line one\r\nline two".utf8)),
                RecordedFormPart(
                    name: "upload", filename: "dashes.txt", contentType: "text/plain",
                    data: Data(repeating: 0x2D, count: 5000)),
            ])
    }

    @Test(arguments: [
        ("plain", "plain"),
        ("a\"b", "a%22b"),
        ("line\r\nbreak", "line%0D%0Abreak"),
        ("caf\u{E9} \u{1F600}", "caf\u{E9} \u{1F600}"),
    ])
    func namesAndFilenamesEscapeQuotesAndLineBreaks(raw: String, written: String) async throws {
        var form = Self.seededForm()
        form.append(Data("x".utf8), name: raw, filename: raw)
        let (recorded, _) = try await MultipartRecording.send(form)
        let parts = try #require(recorded).formParts()
        let part = try #require(parts.first)
        #expect(part.name == written)
        #expect(part.filename == written)
    }

    @Test func theBoundaryIsRandomAndReproducibleFromASeed() {
        #expect(Self.seededForm().boundary == Self.seededForm().boundary)
        #expect(MultipartFormData().boundary != MultipartFormData().boundary)
        let boundary = MultipartFormData().boundary
        #expect(boundary.hasPrefix("networking-"))
        #expect(boundary.dropFirst("networking-".count).count == 32)
        #expect(boundary.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
    }

    @Test func aDataPartContainingTheBoundaryIsRefusedBeforeAnyIO() async throws {
        var form = Self.seededForm()
        form.append("before \(form.boundary) after", name: "sneaky")
        let (recorded, error) = try await MultipartRecording.send(form)
        #expect(recorded == nil)
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message.contains("multipart part 1 (\"sneaky\") contains the form's boundary") == true)
    }

    @Test func aContentTypeWithALineBreakIsRefused() async throws {
        var form = Self.seededForm()
        form.append(Data(), name: "a", contentType: "text/plain\r\nX-Injected: 1")
        let (recorded, error) = try await MultipartRecording.send(form)
        #expect(recorded == nil)
        #expect(error?.message.contains("the content type of multipart part 1 (\"a\") contains a line break") == true)
    }

    @Test func aMissingFilePartIsRefusedNamingThePartAndThePath() async throws {
        let missing = URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString).png")
        var form = Self.seededForm()
        form.append("x", name: "first")
        form.appendFile(missing, name: "photo")
        let (recorded, error) = try await MultipartRecording.send(form)
        #expect(recorded == nil)
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message.contains("multipart part 2 (\"photo\")") == true)
        #expect(error?.message.contains("\(missing.path)\" does not exist") == true)
    }

    @Test func uploadEndsItsProgressAtTheExactEncodedLength() async throws {
        let file = try TestFiles.temporaryFile(Data(repeating: 9, count: 10_000))
        defer { try? FileManager.default.removeItem(at: file) }
        var form = Self.seededForm()
        form.append("v", name: "k")
        form.appendFile(file, name: "f")
        let transport = MockTransport().stub(.post, "/uploads", .success(Receipt(ok: true)))
        let client = NetworkClient(baseURL: URL(string: "https://api.example.com")!, transport: transport)
        let call = client.upload(NetworkRequest<Receipt>(.post, path: "/uploads", body: .multipart(form)))
        _ = try await call.value
        var last: TransferProgress?
        for await progress in call.progress { last = progress }
        let encoded = try #require(transport.requests(to: .post, "/uploads").first?.body)
        #expect(last == TransferProgress(completedBytes: Int64(encoded.count), expectedBytes: Int64(encoded.count)))
    }
}
