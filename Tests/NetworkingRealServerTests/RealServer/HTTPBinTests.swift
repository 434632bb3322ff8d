import Foundation
import Networking
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What httpbin echoes for `/get`, `/post`, `/put`, `/patch`, `/delete` and `/anything`, with the JSON body it
/// parsed decoded as `Body`.
struct HTTPBinEcho<Body: Decodable & Sendable>: Decodable, Sendable {
    let args: [String: String]
    let headers: [String: String]
    let url: String
    let origin: String
    let data: String?
    let form: [String: String]?
    let json: Body?
    let method: String?
}

/// An echo whose JSON body is not looked at.
typealias PlainEcho = HTTPBinEcho<[String: String]>

extension RealServerTests {
    /// The client's echo round trips against httpbin: methods, query, headers, bodies and cookies, decoded into types.
    @Suite struct HTTPBinTests {
        struct Note: Codable, Equatable, Sendable {
            let title: String
            let tags: [String]
            let stars: Int
        }

        @Test func getEchoesQueryItemsAndHeadersExactly() async throws {
            // Given: values that need escaping in a query
            let client = try await HTTPBin.client()
            let query = [
                URLQueryItem(name: "plain", value: "a"), URLQueryItem(name: "space", value: "a b"),
                URLQueryItem(name: "plus", value: "1+1=2"), URLQueryItem(name: "amp", value: "x&y"),
                URLQueryItem(name: "unicode", value: "café ☕"),
            ]
            // When
            let response = try await client.response(
                for: NetworkRequest<PlainEcho>(path: "/get", query: query, headers: ["X-Test-Case": "get echo"]))
            // Then
            let echo = response.value
            #expect(echo.args == ["plain": "a", "space": "a b", "plus": "1+1=2", "amp": "x&y", "unicode": "café ☕"])
            #expect(echo.headers["X-Test-Case"] == "get echo")
            #expect(echo.origin == "127.0.0.1")
            #expect(response.statusCode == 200)
            #expect(response.response.headerFields["Content-Type"] == "application/json")
        }

        @Test func postSendsTheJSONBodyAndDecodesTheEcho() async throws {
            let client = try await HTTPBin.client()
            let note = Note(title: "Über \"quotes\"", tags: ["a", "b"], stars: 5)
            let echo = try await client.send(NetworkRequest<HTTPBinEcho<Note>>(.post, path: "/post", body: .json(note)))
            #expect(echo.json == note)
            #expect(echo.headers["Content-Type"] == "application/json")
            #expect(echo.headers["Content-Length"] == "\(echo.data?.utf8.count ?? -1)")
        }

        @Test(arguments: [HTTPMethod.put, .patch, .delete])
        func bodyMethodsSendTheirJSONBody(method: HTTPMethod) async throws {
            let client = try await HTTPBin.client()
            let note = Note(title: method.rawValue, tags: [], stars: 1)
            let echo = try await client.send(
                NetworkRequest<HTTPBinEcho<Note>>(method, path: "/\(method.rawValue.lowercased())", body: .json(note)))
            #expect(echo.json == note)
            #expect(echo.url.hasSuffix("/\(method.rawValue.lowercased())"))
        }

        @Test func formBodyArrivesAsFormFields() async throws {
            let client = try await HTTPBin.client()
            let echo = try await client.send(
                NetworkRequest<PlainEcho>(
                    .post, path: "/anything/form",
                    body: .form([
                        URLQueryItem(name: "name", value: "Ada Lovelace"), URLQueryItem(name: "eq", value: "a=b&c"),
                    ])
                ))
            #expect(echo.method == "POST")
            #expect(echo.form == ["name": "Ada Lovelace", "eq": "a=b&c"])
            #expect(echo.headers["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")
        }

        @Test(arguments: [HTTPMethod.get, .post, .put, .patch, .delete])
        func anythingEchoesTheMethodAndEscapedPath(method: HTTPMethod) async throws {
            let client = try await HTTPBin.client()
            let body: RequestBody? = method == .get ? nil : .data(Data("raw bytes".utf8), contentType: "text/plain")
            let echo = try await client.send(
                NetworkRequest<PlainEcho>(
                    method, path: "/anything/a b/ü", query: [URLQueryItem(name: "q", value: "1")], body: body))
            #expect(echo.method == method.rawValue)
            // httpbin shows the path as Werkzeug decoded it: the space stays escaped, the ü does not.
            #expect(echo.url.hasSuffix("/anything/a%20b/ü?q=1"), "url was \(echo.url)")
            #expect(echo.data == (method == .get ? "" : "raw bytes"))
        }

        @Test func headersSetByTheRequestArriveAndNothingLeaksFromACookieStore() async throws {
            struct Headers: Decodable, Sendable { let headers: [String: String] }
            let client = try await HTTPBin.client()
            let headers = try await client.send(
                NetworkRequest<Headers>(path: "/headers", headers: ["X-Trace": "t-1", "Accept": "application/json"])
            ).headers
            #expect(headers["X-Trace"] == "t-1")
            #expect(headers["Accept"] == "application/json")
            #expect(headers["Cookie"] == nil)
            #expect(headers["Authorization"] == nil)
        }

        @Test func responseHeadersAreReadableFromTheResponse() async throws {
            struct Echoed: Decodable, Sendable {
                let xColor: String
                enum CodingKeys: String, CodingKey { case xColor = "X-Color" }
            }
            let client = try await HTTPBin.client()
            let response = try await client.response(
                for: NetworkRequest<Echoed>(
                    path: "/response-headers",
                    query: [
                        URLQueryItem(name: "X-Color", value: "blue"),
                        URLQueryItem(name: "Cache-Control", value: "no-store"),
                    ]))
            #expect(response.value.xColor == "blue")
            #expect(response.response.headerFields["x-color"] == "blue")
            #expect(response.response.headerFields["Cache-Control"] == "no-store")
        }

        @Test func cookieHeaderIsSentAsGivenAndSetCookieIsNeverStored() async throws {
            struct Cookies: Decodable, Sendable { let cookies: [String: String] }
            let client = try await HTTPBin.client()
            // An explicit Cookie header goes out as written.
            let sent = try await client.send(
                NetworkRequest<Cookies>(path: "/cookies", headers: ["Cookie": "a=1; b=two"]))
            #expect(sent.cookies == ["a": "1", "b": "two"])
            // /cookies/set answers Set-Cookie and redirects to /cookies: with no cookie store, nothing comes back.
            let afterSet = try await client.send(
                NetworkRequest<Cookies>(path: "/cookies/set", query: [URLQueryItem(name: "session", value: "s3cret")]))
            #expect(afterSet.cookies.isEmpty)
            let later = try await client.send(NetworkRequest<Cookies>(path: "/cookies"))
            #expect(later.cookies.isEmpty)
        }
    }
}
