import Foundation
import NetworkingHTTP
import NetworkingCore

extension FixtureTransport {
    /// One answer described by the manifest; fields left out take the defaults of the naming rule.
    package struct ResponseSpec: Sendable {
        var status = 200
        var headers: [String: String] = [:]
        /// The trailer fields sent after the body.
        var trailers: [String: String] = [:]
        var delay: Duration?
        var file: String?
        var body: Data?
    }

    /// A manifest entry: the requests it answers and its script of answers.
    package struct Route: Sendable {
        let key: String
        let method: String
        let path: PathPattern
        let query: [String: String]
        let steps: [ResponseSpec]

        var segments: [String] { path.segments }

        func matches(method: String, segments: [String], query: [String: String]) -> Bool {
            method == self.method && path.matches(segments) && self.query.allSatisfy { query[$0.key] == $0.value }
        }

        /// More query items, then more literal segments, is more specific.
        var specificity: Int { query.count * 1_000 + path.literalSegmentCount }
    }

    /// The parsed manifest: its routes, in file order.
    package struct Manifest: Sendable {
        var routes: [Route] = []

        static let keys: Set<String> = ["status", "headers", "trailers", "delay", "file", "body", "sequence"]

        /// Parses `data`; the thrown text names the entry and field at fault.
        package static func parse(_ data: Data) throws(Problem) -> Manifest {
            let root: Any
            do {
                root = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            } catch {
                throw Problem(JSONProblem.describe(error, in: data))
            }
            guard let object = root as? [String: Any] else {
                throw Problem("the top level must be an object with a \"routes\" object")
            }
            if let unknown = object.keys.filter({ $0 != "routes" && $0.utf8.first != UInt8(ascii: "_") }).sorted().first
            {
                throw Problem("unknown top-level key \"\(unknown)\"; expected \"routes\"")
            }
            guard let routes = object["routes"] as? [String: Any] else {
                throw Problem("\"routes\" must be an object mapping \"METHOD /path\" to a response")
            }
            var manifest = Manifest()
            for key in routes.keys.sorted() {
                manifest.routes.append(try route(key, routes[key]!))
            }
            return manifest
        }

        /// A route key's method and target: `GET /countries/fr` cut at its first space byte (spaces before the
        /// method ignored); `nil` without one. The recorder and the drift report read keys with it too.
        package static func methodAndTarget(of key: String) -> [String]? {
            let parts = FieldSyntax.split(key, separator: UInt8(ascii: " "), maxSplits: 1, omittingEmpty: true)
            return parts.count == 2 ? parts.map(String.init) : nil
        }

        private static func route(_ key: String, _ value: Any) throws(Problem) -> Route {
            guard let parts = methodAndTarget(of: key), parts[1].utf8.first == UInt8(ascii: "/") else {
                throw Problem("the route \"\(key)\" must read \"METHOD /path\", such as \"GET /countries/fr\"")
            }
            let target = URLComponents(string: parts[1])
            let path = target?.percentEncodedPath ?? parts[1]
            let query = (target?.queryItems ?? []).reduce(into: [String: String]()) { $0[$1.name] = $1.value ?? "" }
            guard let spec = value as? [String: Any] else {
                throw Problem("routes[\"\(key)\"] must be an object")
            }
            let steps: [ResponseSpec]
            if let sequence = spec["sequence"] {
                guard spec.count == 1 else {
                    throw Problem("routes[\"\(key)\"] has \"sequence\", so it may have no other field")
                }
                guard let list = sequence as? [Any], !list.isEmpty else {
                    throw Problem("routes[\"\(key)\"].sequence must be a non-empty array of responses")
                }
                steps = try list.indices.map { (index) throws(Problem) in
                    try response(list[index], at: "routes[\"\(key)\"].sequence[\(index)]")
                }
            } else {
                steps = [try response(spec, at: "routes[\"\(key)\"]")]
            }
            return Route(
                key: key, method: FieldSyntax.uppercasedASCII(parts[0]), path: PathPattern(path), query: query,
                steps: steps)
        }

        private static func response(_ value: Any, at place: String) throws(Problem) -> ResponseSpec {
            guard let fields = value as? [String: Any] else { throw Problem("\(place) must be an object") }
            if let unknown = fields.keys.filter({ !keys.contains($0) || $0 == "sequence" }).sorted().first {
                throw Problem(
                    "\(place) has an unknown field \"\(unknown)\"; allowed: status, headers, trailers, delay, file, body"
                )
            }
            var spec = ResponseSpec()
            if let status = fields["status"] {
                // `is Bool` would also take the numbers 0 and 1 from JSON: the number's own kind tells.
                guard FixtureDrift.typeName(status) == "number", let code = status as? Int, (100...599).contains(code)
                else {
                    throw Problem("\(place).status must be an integer from 100 to 599")
                }
                spec.status = code
            }
            if let headers = fields["headers"] {
                guard let map = headers as? [String: Any], map.values.allSatisfy({ $0 is String }) else {
                    throw Problem("\(place).headers must be an object of strings")
                }
                spec.headers = map.compactMapValues { $0 as? String }
            }
            if let trailers = fields["trailers"] {
                guard let map = trailers as? [String: Any], map.values.allSatisfy({ $0 is String }) else {
                    throw Problem("\(place).trailers must be an object of strings")
                }
                spec.trailers = map.compactMapValues { $0 as? String }
            }
            if let delay = fields["delay"] {
                // A day at most: a larger number is a typo, and one past Int64 milliseconds trapped the process
                // (found by make fuzz).
                guard FixtureDrift.typeName(delay) == "number", let seconds = delay as? Double, seconds >= 0,
                    seconds <= 86_400
                else {
                    throw Problem("\(place).delay must be a number of seconds, from 0 to 86400")
                }
                spec.delay = .milliseconds(Int64((seconds * 1_000).rounded()))
            }
            if let file = fields["file"] {
                guard let name = file as? String, !name.isEmpty else {
                    throw Problem("\(place).file must be a file name relative to the fixture folder")
                }
                spec.file = name
            }
            if let body = fields["body"] {
                guard spec.file == nil else { throw Problem("\(place) has both \"file\" and \"body\"; keep one") }
                spec.body = try? JSONSerialization.data(
                    withJSONObject: body, options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes])
            }
            return spec
        }
    }

    /// Why the manifest was refused.
    package struct Problem: Error {
        package let reason: String
        package init(_ reason: String) { self.reason = reason }
    }
}

/// Readable descriptions of JSON syntax errors, with a line and column when the parser gives an offset.
package enum JSONProblem {
    package static func describe(_ error: any Error, in data: Data) -> String {
        let detail = (error as NSError).userInfo["NSDebugDescription"] as? String ?? "\(error)"
        guard let range = detail.range(of: "character "),  // octets: Foundation's own message, not the file's bytes
            let offset = Int(detail[range.upperBound...].prefix { $0.isNumber })
        else {
            return "invalid JSON: \(detail)"
        }
        var line = 1
        var column = 1
        for byte in data.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return "invalid JSON at line \(line), column \(column): \(detail)"
    }
}
