import Foundation
import Networking
import NetworkingCurl
import NetworkingHTTP

extension Harness {
    /// Lines handed to the head parser one by one, as libcurl's header callback does: a complete head has a status
    /// of three digits and fields that the model admits (no CR, LF or NUL in a value, a token as a name).
    static func head(_ data: Data) {
        var parser = CurlHeadParser()
        var start = data.startIndex
        while start < data.endIndex {
            let end = (data[start...].firstIndex(of: 0x0A).map { $0 + 1 }) ?? data.endIndex
            let line = Data(data[start..<end])
            let completed = line.withUnsafeBytes { parser.take($0) }
            start = end
            if completed { break }
            if parser.failure != nil { return }
        }
        guard parser.isComplete, parser.failure == nil else { return }
        check((100...999).contains(parser.code ?? 0), "a complete head has a three-digit status: \(parser.code ?? -1)")
        check(!(100...199).contains(parser.code ?? 0), "an interim 1xx head is never the final one")
        for field in parser.fields {
            check(field.name.isValid, "a field name is a token: \(field.name.rawName.debugDescription)")
            check(
                HTTPToken.isValidFieldValue(field.value),
                "a field value has no CR, LF or NUL: \(field.value.debugDescription)")
        }
    }

    /// Any name and value written into fields: either admitted as given, or refused with the fields unchanged and a
    /// reason; nothing admitted holds a CR, LF or NUL, and lookup ignores the name's case.
    static func fields(_ data: Data) {
        let (name, value) = pair(data)
        let fieldName = HTTPField.Name(name)
        var fields: HTTPFields = ["Accept": "application/json"]
        fields[fieldName] = value
        let admitted = fieldName.isValid && HTTPToken.isValidFieldValue(value)
        if admitted {
            let lowered = HTTPField.Name(HTTPToken.lowercasedASCII(name))
            check(
                fields[fieldName].map { FieldSyntax.equals($0, value) } == true,
                "an admitted value reads back as written")
            check(fields[lowered].map { FieldSyntax.equals($0, value) } == true, "lookup ignores the name's case")
            check(fields.invalidReason == nil, "an admitted write leaves no refusal")
        } else {
            check(fields.invalidReason != nil, "a refused write says why")
            check(
                fields["Accept"].map { FieldSyntax.equals($0, "application/json") } == true,
                "a refused write changes nothing else")
        }
        for field in fields {
            check(HTTPToken.isValidFieldValue(field.value), "no stored value holds CR, LF or NUL")
            check(
                field.name.canonicalName.utf8.elementsEqual(HTTPToken.lowercasedASCII(field.name.rawName).utf8)
                    || !field.name.isValid,
                "the canonical name is the name in lower case")
        }
    }
}
