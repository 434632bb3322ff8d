import Foundation
import Networking

/// A transport that shows each request reaching the backend and the status it got, then passes it on: what
/// actually crosses the wire, after the HTTP cache and coalescing have answered or shared what they could.
struct WireTap: HTTPTransport {
    /// The transport that carries the requests.
    let base: any HTTPTransport
    /// Where the lines go.
    let console: DemoConsole

    /// Shows `request`, sends it through ``base``, shows the status.
    func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
        console.wire(request)
        let (response, body) = try await base.send(request)
        console.wire(response, for: request)
        return (response, body)
    }
}
