import Foundation
import NetworkingHTTP
import NetworkingCore

/// How a request is named in a recorded folder: its manifest key and its files.
///
/// The key is `METHOD /path?query` with the path after the base path and the query items sorted by name then
/// value, secret query parameters left out (so they match whatever their value, and never reach disk).
struct RecordKey: Sendable, Hashable {
    let method: String
    /// Path segments, percent-decoded.
    let segments: [String]
    /// Query items without the secret ones, sorted.
    let query: [URLQueryItem]

    init(method: String, segments: [String], query: [URLQueryItem], redaction: Redaction) {
        self.method = FieldSyntax.uppercasedASCII(method)
        self.segments = segments
        self.query = query.filter { !redaction.queryParameterNames.contains(HTTPToken.lowercasedASCII($0.name)) }
            .sorted { ($0.name, $0.value ?? "") < ($1.name, $1.value ?? "") }
    }

    /// Reads a manifest key the way `FixtureTransport` does.
    init?(manifestKey: String, redaction: Redaction) {
        guard let parts = FixtureTransport.Manifest.methodAndTarget(of: manifestKey),
            let components = URLComponents(string: parts[1])
        else { return nil }
        self.init(
            method: parts[0], segments: PathPattern.segments(of: components.percentEncodedPath),
            query: components.queryItems ?? [], redaction: redaction)
    }

    private static let segmentAllowed: CharacterSet = {
        var set = CharacterSet.urlPathAllowed
        set.remove(charactersIn: "/?;%")
        return set
    }()

    /// The path, percent-encoded where needed.
    var path: String {
        "/"
            + segments.map { $0.addingPercentEncoding(withAllowedCharacters: Self.segmentAllowed) ?? $0 }
            .joined(separator: "/")
    }

    /// The query, percent-encoded, or `nil` when empty.
    var encodedQuery: String? {
        guard !query.isEmpty else { return nil }
        var components = URLComponents()
        components.queryItems = query
        return components.percentEncodedQuery
    }

    /// The manifest key.
    var manifestKey: String {
        "\(method) \(path)" + (encodedQuery.map { "?\($0)" } ?? "")
    }

    /// The name of the file of the answer at `index` (0 for the first) with extension `ext`, such as
    /// `countries/fr.GET.json`, `search.GET.q-name=japan-1a2b3c4d.json` or `countries.GET.2.json`.
    func fileName(index: Int, ext: String, role: String = "") -> String {
        let names = segments.isEmpty ? ["index"] : segments.map(Self.safe)
        var name = names.joined(separator: "/") + "." + Self.safe(method)
        if let query = encodedQuery {
            let digest = SHA256.digest(Data(query.utf8)).prefix(4).map { String(format: "%02x", $0) }.joined()
            name += ".q-" + String(Self.safe(query).prefix(32)) + "-" + digest
        }
        if index > 0 { name += ".\(index + 1)" }
        if !role.isEmpty { name += ".\(role)" }
        return name + "." + ext
    }

    /// `text` with anything but letters, digits, `-`, `_`, `=` and `.` replaced by `_`, and no leading dot.
    static func safe(_ text: String) -> String {
        // Scalars, not Characters: a Set of Characters holds U+212A (it equals "K") and drops an "e" followed by a
        // combining mark whole.
        let allowed = ASCIISet("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=.")
        var mapped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            mapped.append(scalar.isASCII && allowed.contains(UInt8(scalar.value)) ? scalar : "_")
        }
        if mapped.first?.value == 0x2E { mapped.replaceSubrange(mapped.startIndex...mapped.startIndex, with: ["_"]) }
        return String(mapped)
    }

    /// How far apart two keys are, for naming the closest recordings: same method and path first, then same
    /// path, then the differing segments (earlier ones weigh more, a missing one more than another value).
    func distance(to other: RecordKey) -> Int {
        var distance = 0
        if method != other.method { distance += 100 }
        let longest = max(segments.count, other.segments.count)
        distance += 5 * abs(segments.count - other.segments.count)
        for index in 0..<longest {
            let mine = index < segments.count ? segments[index] : nil
            let theirs = index < other.segments.count ? other.segments[index] : nil
            if mine != theirs { distance += 10 * (longest - index) }
        }
        distance +=
            Set(query.map { "\($0.name)=\($0.value ?? "")" })
            .symmetricDifference(other.query.map { "\($0.name)=\($0.value ?? "")" }).count
        return distance
    }
}
