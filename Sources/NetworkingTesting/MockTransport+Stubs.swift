import Foundation
import NetworkingHTTP
import NetworkingCore

extension MockTransport {
    /// Answers requests matching `method` and `path` with `response`, then each of `more` in turn; the last answer
    /// repeats once the script has run out.
    ///
    /// ```swift
    /// mock.stub(.get, "/me", .unauthorized, .success(User(id: 1, name: "Ada")))        // 401, then 200
    /// mock.stub(.get, "/feed", .serviceUnavailable(retryAfter: 1), .json("[]"))       // 503 + Retry-After, then 200
    /// ```
    ///
    /// - Parameters:
    ///   - method: The method to match.
    ///   - path: The path pattern; see ``StubMatcher`` for the rules.
    ///   - query: Query items the request must carry.
    ///   - response: The first answer.
    ///   - more: The following answers, in order.
    /// - Returns: This mock, so stubs can be chained.
    @discardableResult
    public func stub(
        _ method: HTTPMethod, _ path: String, query: [String: String] = [:], _ response: MockResponse,
        _ more: MockResponse...
    ) -> MockTransport {
        stub(StubMatcher(method: method, path: path, query: query), sequence: [response] + more)
    }

    /// Answers requests that `matcher` matches with `responses` in order; the last answer repeats.
    ///
    /// - Parameters:
    ///   - matcher: Which requests the stub answers.
    ///   - responses: The script; must not be empty.
    /// - Returns: This mock, so stubs can be chained.
    @discardableResult
    public func stub(_ matcher: StubMatcher, sequence responses: [MockResponse]) -> MockTransport {
        precondition(!responses.isEmpty, "a stub needs at least one response")
        state.withLock { $0.stubs.append(Stub(matcher: matcher, source: .script(responses))) }
        return self
    }

    /// Answers requests matching `method` and `path` by calling `handler` with each of them, for answers that
    /// depend on what was sent.
    ///
    /// ```swift
    /// mock.stub(.post, "/users") { request in
    ///     let new = try request.decodedBody(as: NewUser.self)
    ///     return .success(User(id: 7, name: new.name), status: 201)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - method: The method to match.
    ///   - path: The path pattern; see ``StubMatcher`` for the rules.
    ///   - query: Query items the request must carry.
    ///   - handler: Returns the answer to one request; an error it throws reaches the client as a transport error.
    /// - Returns: This mock, so stubs can be chained.
    @discardableResult
    public func stub(
        _ method: HTTPMethod, _ path: String, query: [String: String] = [:],
        handler: @escaping StubHandler
    ) -> MockTransport {
        let matcher = StubMatcher(method: method, path: path, query: query)
        state.withLock { $0.stubs.append(Stub(matcher: matcher, source: .handler(handler))) }
        return self
    }

    /// The stubs, in the order they were added.
    public var stubs: [StubMatcher] { state.withLock { $0.stubs.map(\.matcher) } }

    /// The stubs no request has used yet: a test can expect this to be empty to prove every stub was needed.
    public var unusedStubs: [StubMatcher] { state.withLock { $0.stubs.filter { $0.served == 0 }.map(\.matcher) } }

    /// How many requests each stub has answered so far, in the order the stubs were added.
    public var stubHitCounts: [Int] { state.withLock { $0.stubs.map(\.served) } }
}
