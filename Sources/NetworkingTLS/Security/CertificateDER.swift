import Foundation
import NetworkingHTTP

/// Just enough DER (X.690) to find a certificate's SubjectPublicKeyInfo, the bytes a public-key pin hashes.
///
/// An X.509 certificate is `SEQUENCE { tbsCertificate SEQUENCE { [0] version OPTIONAL, serialNumber,
/// signature, issuer, validity, subject, subjectPublicKeyInfo, ... }, ... }` (RFC 5280 §4.1). Every read is
/// bounds-checked: malformed input gives `nil`, never a trap.
enum CertificateDER {
    /// One element: its tag, where its content starts, and where the element ends.
    private struct Element {
        let tag: UInt8
        let start: Int
        let contentStart: Int
        let end: Int
    }

    /// The whole SubjectPublicKeyInfo element (tag, length and content) of the DER certificate `der`.
    static func subjectPublicKeyInfo(of der: Data) -> Data? {
        let bytes = [UInt8](der)
        guard let certificate = element(in: bytes, at: 0), certificate.tag == 0x30, certificate.end == bytes.count,
            let tbs = element(in: bytes, at: certificate.contentStart), tbs.tag == 0x30
        else { return nil }
        var position = tbs.contentStart
        var fields: [Element] = []
        while position < tbs.end, fields.count < 7 {
            guard let field = element(in: bytes, at: position), field.end <= tbs.end else { return nil }
            fields.append(field)
            position = field.end
        }
        // With the explicit version ([0], tag 0xA0) the key is the seventh field, without it the sixth.
        let index = fields.first?.tag == 0xA0 ? 6 : 5
        guard fields.count > index, fields[index].tag == 0x30 else { return nil }
        return Data(bytes[fields[index].start..<fields[index].end])
    }

    /// The element at `offset`, if its header and length fit in `bytes`.
    private static func element(in bytes: [UInt8], at offset: Int) -> Element? {
        guard offset + 2 <= bytes.count else { return nil }
        let tag = bytes[offset]
        let first = Int(bytes[offset + 1])
        var contentStart = offset + 2
        var length = first
        if first >= 0x80 {
            let count = first & 0x7F
            guard (1...4).contains(count), contentStart + count <= bytes.count else { return nil }
            // Read in 64 bits: four length bytes overflow a 32-bit `Int` into a negative length.
            var wide: UInt64 = 0
            for byte in bytes[contentStart..<contentStart + count] { wide = wide << 8 | UInt64(byte) }
            guard wide <= UInt64(bytes.count) else { return nil }
            length = Int(wide)
            contentStart += count
        }
        guard length >= 0, length <= bytes.count - contentStart else { return nil }
        return Element(tag: tag, start: offset, contentStart: contentStart, end: contentStart + length)
    }
}
