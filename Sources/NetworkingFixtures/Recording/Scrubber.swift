import Foundation
import NetworkingHTTP
import NetworkingCore

/// Takes the secrets out of what a recording writes, with the rules logs use (`Redaction`): redacted and
/// sensitive header values become the placeholder, and every secret value the request carried (credentials,
/// cookies, secret query values) is replaced wherever it appears in a response, along with the values of
/// scrubbed JSON keys.
struct Scrubber: Sendable {
    let redaction: Redaction
    let jsonKeys: Set<String>
    /// The secret values of the request, longest first.
    let secrets: [String]

    init(request: HTTPRequest, options: RecordingOptions) {
        redaction = options.redaction
        jsonKeys = options.allScrubbedJSONKeys
        secrets = options.redaction.secrets(in: request)
    }

    static let placeholder = Redaction.placeholder

    /// The response headers to write: framing and volatile ones dropped, secrets replaced, repeated fields joined.
    func headers(_ fields: HTTPFields, options: RecordingOptions) -> [String: String] {
        var written: [String: String] = [:]
        var names: [String: String] = [:]
        for field in fields where options.keepsHeader(field.name) {
            let value = redaction.redacts(field) ? Self.placeholder : Redaction.scrub(field.value, secrets: secrets)
            let name = names[field.name.canonicalName] ?? field.name.rawName
            names[field.name.canonicalName] = name
            if let existing = written[name] {
                if existing != Self.placeholder || value != Self.placeholder { written[name] = existing + ", " + value }
            } else {
                written[name] = value
            }
        }
        return written
    }

    /// A JSON value with scrubbed keys' values replaced and secrets removed from every string.
    func json(_ value: Any) -> Any {
        switch value {
        case let object as [String: Any]:
            var result: [String: Any] = [:]
            for (key, member) in object {
                result[key] = jsonKeys.contains(HTTPToken.lowercasedASCII(key)) ? Self.placeholder : json(member)
            }
            return result
        case let array as [Any]:
            return array.map(json)
        case let text as String:
            return Redaction.scrub(text, secrets: secrets)
        default:
            return value
        }
    }

    /// Bytes with every secret replaced (for bodies that are not rewritten as JSON), and, when they are JSON,
    /// scrubbed keys' values replaced in place of their text.
    func bytes(_ data: Data, contentType: String?) -> Data {
        var data = data
        if FieldSyntax.isMediaType(contentType, "application/x-www-form-urlencoded"),
            let text = String(data: data, encoding: .utf8)
        {
            let formRedaction = Redaction(queryParameterNames: jsonKeys)
            data = Data(formRedaction.redactedQuery(text).utf8)
        }
        for secret in secrets {
            let pattern = Data(secret.utf8)
            guard !pattern.isEmpty else { continue }
            var searchStart = data.startIndex
            while let range = data.range(of: pattern, in: searchStart..<data.endIndex) {
                data.replaceSubrange(range, with: Data(Self.placeholder.utf8))
                searchStart = range.lowerBound + Self.placeholder.utf8.count
            }
        }
        return data
    }

    /// Whether a scrubbed JSON key appears in an object of `value`.
    func hasScrubbedKey(_ value: Any) -> Bool {
        switch value {
        case let object as [String: Any]:
            object.contains { jsonKeys.contains(HTTPToken.lowercasedASCII($0.key)) || hasScrubbedKey($0.value) }
        case let array as [Any]:
            array.contains(where: hasScrubbedKey)
        default:
            false
        }
    }
}
