import Foundation
import Networking
import NetworkingTesting

/// A request to `https://api.test` + `path`.
package func recordingRequest(
    _ method: HTTPMethod = .get, _ path: String, headers: HTTPFields = [:], body: Data? = nil
) -> HTTPRequest {
    HTTPRequest(
        method: method, url: URL(string: "https://api.test\(path)")!, headerFields: headers,
        body: body.map { .data($0) } ?? .empty)
}

/// Sends `request` and reads the whole body.
package func exchange(_ transport: any HTTPTransport, _ request: HTTPRequest) async throws -> (HTTPResponse, Data) {
    let (head, body) = try await transport.send(request)
    return (head, try await body.collect(upTo: 1 << 24))
}

/// Every regular file under `folder`, by path relative to it, with its bytes.
package func filesUnder(_ folder: URL) -> [String: Data] {
    var files: [String: Data] = [:]
    let base = folder.resolvingSymlinksInPath().path
    guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [:] }
    for case let url as URL in walker {
        let path = url.resolvingSymlinksInPath().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else {
            continue
        }
        files[String(path.dropFirst(base.count + 1))] = try? Data(contentsOf: url)
    }
    return files
}

/// A mock backend answering JSON that names the request, with volatile headers that change on every call.
package func echoBackend(extraHeaders: HTTPFields = [:]) -> MockTransport {
    let counter = LockedBox(0)
    return MockTransport { request in
        let call = counter.withLock { count in
            count += 1
            return count
        }
        var headers: HTTPFields = [
            .contentType: "application/json", "Date": "Thu, 26 Nov 2026 02:0\(call % 10):00 GMT",
            "X-Request-ID": UUID().uuidString, "Cache-Control": "max-age=60",
        ]
        for field in extraHeaders { headers.append(field) }
        let text = #"{"path": "\#(request.path)", "method": "\#(request.method.rawValue)", "n": 1, "list": [3, 1]}"#
        return (HTTPResponse(status: .ok, headerFields: headers, url: request.url), Data(text.utf8))
    }
}
