import Foundation
import NetworkingHTTP

/// The decoding rules behind ``NetworkRequest``'s typed initialisers.
package enum ResponseDecoding {
    /// Decodes `T` from a body: `Data`, `String` and ``EmptyResponse`` by their own rules, anything else as JSON.
    /// The type checks are metatype comparisons (no conformance look-up) and each bit cast is between identical
    /// types.
    @Sendable
    package static func decodable<T: Decodable>(_ data: Data, _ response: HTTPResponse, _ decoder: JSONDecoder) throws
        -> T
    {
        if T.self == Data.self { return unsafeBitCast(data, to: T.self) }
        if T.self == String.self { return unsafeBitCast(try String(body: data, response: response), to: T.self) }
        if T.self == EmptyResponse.self { return unsafeBitCast(EmptyResponse(), to: T.self) }
        if data.isEmpty {
            // "No content" for an optional response is `nil`, as Get does.
            if let optional = T.self as? any NoContentRepresentable.Type { return optional.noContent as! T }
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "The body is empty; expected JSON for \(T.self)."))
        }
        return try decoder.decode(T.self, from: data)
    }
}

extension ResponseDecoding {
    /// Whether `T` is read as JSON by ``decodable(_:_:_:)``: anything but `Data`, `String` and ``EmptyResponse``.
    package static func isJSON<T: Decodable>(_ type: T.Type) -> Bool {
        T.self != Data.self && T.self != String.self && T.self != EmptyResponse.self
    }
}

/// A type with a value that stands for "no content": `nil` for optionals.
package protocol NoContentRepresentable {
    /// The value of an empty body.
    static var noContent: Self { get }
}

extension Optional: NoContentRepresentable {
    package static var noContent: Self { nil }
}

extension String {
    /// The body as text in the charset the response names (UTF-8 when it names none).
    package init(body: Data, response: HTTPResponse) throws {
        let encoding = Self.encoding(fromContentType: response.headerFields[.contentType])
        guard let text = String(data: body, encoding: encoding) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "The body is not valid text in encoding \(encoding)."))
        }
        self = text
    }

    /// The text encoding named by a `charset` parameter (RFC 9110 §8.3.2, read as octets: names in any ASCII case,
    /// quoted or not); UTF-8 when absent or unknown.
    package static func encoding(fromContentType contentType: String?) -> String.Encoding {
        guard let contentType,
            let charset = FieldSyntax.parameters(contentType).parameters.lazy
                .compactMap({ $0.name == "charset" ? $0.value : nil }).first(where: { !$0.isEmpty })
        else { return .utf8 }
        switch FieldSyntax.token(charset) {
        case "iso-8859-1", "latin1": return .isoLatin1
        case "us-ascii", "ascii": return .ascii
        case "utf-16": return .utf16
        case "utf-16le": return .utf16LittleEndian
        case "utf-16be": return .utf16BigEndian
        default: return .utf8
        }
    }
}
