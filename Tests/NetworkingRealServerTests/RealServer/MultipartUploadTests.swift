import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RealServerTests {
    /// Multipart forms over the real transport: httpbin, a server nobody here wrote, parses them back into fields
    /// and files; the fault server counts hits and bytes on retries.
    @Suite struct MultipartUploadTests {
        struct HTTPBinPost: Decodable, Sendable {
            let form: [String: String]
            let files: [String: String]
            let headers: [String: String]
        }

        @Test func httpbinParsesTheFieldsAndTheFileOfAForm() async throws {
            let fileText = String(repeating: "line of the file\n", count: 20_000)
            let file = try TestFiles.temporaryFile(Data(fileText.utf8), name: "report")
            defer { try? FileManager.default.removeItem(at: file) }
            var form = MultipartFormData()
            form.append("Ada Lovelace", name: "author")
            form.append("caf\u{E9}", name: "drink")
            form.appendFile(file, name: "report", filename: "report.txt", contentType: "text/plain")
            let echo = try await HTTPBin.client().send(
                NetworkRequest<HTTPBinPost>(.post, path: "/post", body: .multipart(form)))
            #expect(echo.form == ["author": "Ada Lovelace", "drink": "caf\u{E9}"])
            #expect(echo.files == ["report": fileText])
            #expect(echo.headers["Content-Type"] == form.contentType)
            // The exact encoded length, as the same form recorded by a mock encodes it.
            let (recorded, _) = try await MultipartRecording.send(form)
            let encoded = try #require(recorded?.body)
            #expect(echo.headers["Content-Length"] == "\(encoded.count)")
            #expect(echo.headers["Transfer-Encoding"] == nil)
        }

        @Test func aRetriedFormIsSentWholeOnEveryAttemptWithAnExactLength() async throws {
            let key = FaultServer.newKey("multipart-retry")
            let file = try TestFiles.temporaryFile(FaultUploadTests.contents(300_000), name: "big")
            defer { try? FileManager.default.removeItem(at: file) }
            var form = MultipartFormData()
            form.append("42", name: "id")
            form.appendFile(file, name: "big", contentType: "text/plain")
            let client = try await FaultServer.client(behavior: .retry(.default, clock: TestClock()))
            _ = try await client.send(
                NetworkRequest<FaultRetryTests.Flaky>(
                    .put, path: "/flaky/1/503", query: Faults.query(key), body: .multipart(form)))
            let hits = try await FaultServer.hits(key)
            #expect(hits.count == 2)
            let bodies = hits.requests.map(\.body)
            #expect(bodies.count == 2 && bodies[0] == bodies[1])
            let lengths = hits.requests.map { $0.headers["content-length"].flatMap { Int($0) } }
            #expect(lengths == Array(repeating: bodies.first.map { $0.utf8.count }, count: 2))
            #expect(bodies.first?.contains(String(decoding: FaultUploadTests.contents(300_000), as: UTF8.self)) == true)
            #expect(hits.requests.first?.headers["content-type"] == form.contentType)
        }

        @Test func aFormWithoutFilesIsSentFromMemoryWithItsLength() async throws {
            var form = MultipartFormData()
            form.append("v", name: "k")
            let digest = try await FaultServer.client().send(
                NetworkRequest<FaultUploadTests.Digest>(.post, path: "/upload-digest", body: .multipart(form)))
            #expect(digest.content_length == "\(digest.bytes)")
            #expect(digest.content_type == form.contentType)
        }
    }
}
