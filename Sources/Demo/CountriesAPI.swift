import Foundation
import Networking

/// The countries API's endpoints as typed requests: values that say what to send and what comes back.
///
/// Paths follow a public countries API (`/region/{name}`, `/alpha/{code}`, `/name/{name}`), which answers every
/// endpoint with a JSON array.
enum CountriesAPI {
    /// Every country of a region, such as `europe`.
    static func countries(inRegion region: String) -> NetworkRequest<[Country]> {
        NetworkRequest(path: "/region/\(region)")
    }

    /// One country by its two-letter code, such as `fr`.
    static func country(code: String) -> NetworkRequest<[Country]> {
        NetworkRequest(path: "/alpha/\(code)")
    }

    /// Countries whose name is exactly `name`.
    static func search(name: String) -> NetworkRequest<[Country]> {
        NetworkRequest(path: "/name/\(name)", query: [URLQueryItem(name: "fullText", value: "true")])
    }
}
