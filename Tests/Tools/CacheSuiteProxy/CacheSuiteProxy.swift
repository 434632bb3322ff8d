import Foundation
import Networking

/// The client side of `make cache-tests` (Tests/Tools/cache_suite.py): the HTTP cache under test, as the public
/// cache suite (http-tests/cache-tests) tests any cache, by sending its requests through it. The script's front
/// server hands each request it receives to this process as one JSON line on standard input; this process sends it
/// to the suite's origin server through a `NetworkClient` with ``HTTPCacheBehavior`` and a real transport, and
/// writes the response as one JSON line on standard output. So what the suite checks (what its origin received,
/// what came back) is what this client did.
///
/// Arguments: `--origin URL` (the suite's server), `--mode private|shared`, `--transport default|urlsession`.
@main
struct CacheSuiteProxy {
    /// One request, as the front server received it.
    struct Exchange: Decodable {
        let id: Int
        let method: String
        let target: String
        let headers: [[String]]
        let body: String
    }

    /// The response head and body, as the decoding closure receives them.
    struct Answer: Sendable {
        let head: HTTPResponse
        let body: Data
    }

    static func main() async throws {
        let arguments = CommandLine.arguments
        func value(_ name: String) -> String? {
            arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
        }
        guard let origin = value("--origin").flatMap(URL.init(string:)) else {
            FileHandle.standardError.write(Data("usage: CacheSuiteProxy --origin URL [--mode private|shared]\n".utf8))
            exit(2)
        }
        let mode: HTTPCacheBehavior.Mode = value("--mode") == "shared" ? .shared : .private
        let transport: any HTTPTransport =
            value("--transport") == "urlsession" ? URLSessionTransport() : DefaultTransport.shared
        let client = NetworkClient(
            configuration: .init(
                baseURL: origin, transport: transport, behavior: HTTPCacheBehavior(mode: mode),
                acceptableStatusCodes: Set(100..<1000), timeout: .seconds(20), followsRedirects: false))
        let output = LockedOutput()
        let lines = AsyncStream<String> { continuation in
            // Standard input is read on a thread of its own: a blocking read would hold a thread of the pool.
            Thread {
                while let line = readLine() { continuation.yield(line) }
                continuation.finish()
            }.start()
        }
        await withTaskGroup(of: Void.self) { group in
            for await line in lines {
                group.addTask { output.write(await answer(line, client: client)) }
            }
        }
    }

    /// The JSON line answering one request line: the response, or a 502 saying what failed.
    static func answer(_ line: String, client: NetworkClient) async -> [String: Any] {
        guard let exchange = try? JSONDecoder().decode(Exchange.self, from: Data(line.utf8)) else {
            return ["id": -1, "status": 400, "headers": [[String]](), "body": ""]
        }
        var headers = HTTPFields()
        for pair in exchange.headers where pair.count == 2 {
            headers.append(HTTPField(name: HTTPField.Name(pair[0]), value: pair[1]))
        }
        let body = Data(base64Encoded: exchange.body) ?? Data()
        var request = NetworkRequest<Answer>(
            method: HTTPMethod(rawValue: exchange.method), endpoint: .path(exchange.target), headers: headers,
            body: body.isEmpty ? nil : .data(body)
        ) { data, head, _ in Answer(head: head, body: data) }
        request.followsRedirects = false
        do {
            let answer = try await client.send(request)
            return [
                "id": exchange.id, "status": answer.head.status.code, "reason": answer.head.status.reasonPhrase,
                "headers": answer.head.headerFields.map { [$0.name.rawName, $0.value] },
                "body": answer.body.base64EncodedString(),
            ]
        } catch {
            FileHandle.standardError.write(
                Data("CacheSuiteProxy: \(exchange.method) \(exchange.target): \(error)\n".utf8))
            return [
                "id": exchange.id, "status": 502, "headers": [["X-Proxy-Error", "1"]],
                "body": Data("\(error)".utf8).base64EncodedString(),
            ]
        }
    }
}

/// Standard output, one whole line per write.
final class LockedOutput: Sendable {
    private let lock = NSLock()

    func write(_ object: [String: Any]) {
        guard var data = try? JSONSerialization.data(withJSONObject: object) else { return }
        data.append(0x0A)
        lock.lock()
        FileHandle.standardOutput.write(data)
        lock.unlock()
    }
}
