import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPURLResponse {
    /// A response to `request` with `status` and `headers`; for building test answers.
    ///
    /// - Parameters:
    ///   - request: The request answered; its URL becomes the response's URL.
    ///   - status: The status code, 200 by default.
    ///   - headers: The response headers.
    /// - Returns: The response head.
    public static func stub(
        for request: URLRequest, status: Int = 200, headers: [String: String] = [:]
    ) -> HTTPURLResponse {
        let url = request.url ?? URL(string: "http://invalid.test/")!
        return HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!
    }
}
