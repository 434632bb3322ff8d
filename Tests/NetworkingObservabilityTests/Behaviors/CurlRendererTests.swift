import Foundation
import Networking
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `CurlRenderer`: commands that paste into a shell, with the logging redaction.
@Suite struct CurlRendererTests {
    @Test func aPlainGetIsJustTheQuotedURL() {
        let request = HTTPRequest(url: URL(string: "https://api.example.test/v1/users?page=2&sort=name")!)
        #expect(CurlRenderer().render(request) == "curl 'https://api.example.test/v1/users?page=2&sort=name'")
    }

    // Header names are written in the canonical case Foundation uses on every platform (Linux rewrites them).
    @Test func aPostHasItsMethodSortedHeadersAndBodyEachSingleQuoted() {
        var request = HTTPRequest(url: URL(string: "https://api.example.test/v1/users")!)
        request.method = "POST"
        request.headerFields["Content-Type"] = "application/json"
        request.headerFields["Api-Version"] = "2"
        request.body = .data(Data(#"{"name":"O'Brien"}"#.utf8))
        #expect(
            CurlRenderer().render(request)
                == #"curl -X 'POST' -H 'Api-Version: 2' -H 'Content-Type: application/json' "#
                + #"--data-binary '{"name":"O'\''Brien"}' 'https://api.example.test/v1/users'"#)
    }

    @Test(arguments: [
        ("HEAD", "curl --head 'https://api.example.test/x'"),
        ("DELETE", "curl -X 'DELETE' 'https://api.example.test/x'"),
    ])
    func methodsOtherThanGetAreSpelledOut(method: String, expected: String) {
        var request = HTTPRequest(url: URL(string: "https://api.example.test/x")!)
        request.method = HTTPMethod(rawValue: method)
        #expect(CurlRenderer().render(request) == expected)
    }

    @Test func secretsNeverAppearInTheCommand() {
        var request = HTTPRequest(
            url: URL(string: "https://api.example.test/v1/login?token=q-S3CR3T-2&page=1#f")!)
        request.method = "POST"
        request.headerFields["Authorization"] = "Bearer b-S3CR3T-3"
        request.headerFields["Cookie"] = "sid=c-S3CR3T-4"
        request.headerFields["X-Api-Key"] = "k-S3CR3T-5"
        request.headerFields[sensitive: "X-Device"] = "d-S3CR3T-7"
        request.headerFields["Content-Type"] = "application/x-www-form-urlencoded"
        request.body = .data(Data("password=f-S3CR3T-6&echo=b-S3CR3T-3".utf8))
        let command = CurlRenderer(redaction: Redaction(headerNames: ["x-api-key"])).render(request)
        #expect(!command.contains("S3CR3T"), "\(command)")
        #expect(command.contains("'X-Device: <redacted>'"))
        #expect(command.contains("'Authorization: <redacted>'"))
        #expect(command.contains("'X-Api-Key: <redacted>'"))
        #expect(command.contains("'password=<redacted>&echo=<redacted>'"))
        #expect(command.hasSuffix("'https://api.example.test/v1/login?token=<redacted>&page=1'"))
    }

    @Test func aBinaryBodyIsLeftOutAndNamedInAComment() {
        var request = HTTPRequest(url: URL(string: "https://api.example.test/upload")!)
        request.method = "PUT"
        request.body = .data(Data([0xFF, 0xFE, 0x00, 0x01]))
        #expect(
            CurlRenderer().render(request)
                == "curl -X 'PUT' 'https://api.example.test/upload' # binary body of 4 bytes left out")
    }

    @Test(arguments: ["it's", "'", "''", "$(touch /tmp/pwned) `id` $HOME", "a\nb", #"back\slash"#, "é 🚀", ""])
    func quotingKeepsAnyTextOneLiteralShellWord(text: String) throws {
        let quoted = CurlRenderer.quoted(text)
        #expect(quoted.hasPrefix("'") && quoted.hasSuffix("'"))
        #expect(try shellEcho(quoted) == text)
    }

    @Test func aFileBodyIsReadByCurlFromItsPathAndAProducedBodyIsNamedNotShown() throws {
        var request = HTTPRequest(method: .put, url: URL(string: "https://api.example.test/v1/up")!)
        request.body = .file(URL(fileURLWithPath: "/tmp/movie.mp4"))
        #expect(
            CurlRenderer().render(request)
                == "curl -X 'PUT' --data-binary '@/tmp/movie.mp4' 'https://api.example.test/v1/up'")
        var form = MultipartFormData()
        form.append("x", name: "a")
        request.body = form.body
        let length = try #require(form.body.length)
        #expect(
            CurlRenderer().render(request)
                == "curl -X 'PUT' 'https://api.example.test/v1/up' # produced body (\(length) bytes) left out")
    }
}

/// What `/bin/sh` makes of `word`: run `printf %s <word>` and read its output back.
private func shellEcho(_ word: String) throws -> String {
    #if os(macOS) || os(Linux)
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "printf %s \(word)"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    #else
        return String(word.dropFirst().dropLast()).replacingOccurrences(of: #"'\''"#, with: "'")
    #endif
}
