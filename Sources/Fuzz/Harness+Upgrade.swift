import Foundation
import NetworkingCurl

extension Harness {
    /// The answer to a WebSocket handshake as `CurlTransport` reads it (RFC 9112): a head is read the same in any cut
    /// (incomplete until its empty line, then the same head of the same length), its status three digits, its fields
    /// free of CR, LF and NUL, no longer than the input; a refusal's chunked body never longer than its input.
    static func upgradeHead(_ data: Data) {
        let bytes = Array(data.dropFirst())
        let whole = Result { () throws(HTTP1Upgrade.Problem) in try HTTP1Upgrade.readHead(bytes, url: nil) }
        var seen: [UInt8] = []
        var cut: Result<HTTP1Upgrade.Head?, HTTP1Upgrade.Problem> = .success(nil)
        for chunk in chunks(data) {
            seen.append(contentsOf: chunk)
            cut = Result { () throws(HTTP1Upgrade.Problem) in try HTTP1Upgrade.readHead(seen, url: nil) }
            if case .success(nil) = cut { continue }
            break
        }
        switch (whole, cut) {
        case (.success(let head?), .success(let other?)):
            check(head == other, "a head reads the same in any cut")
            check(head.length <= bytes.count, "a head is no longer than its input")
            check((100...999).contains(head.response.status.code), "a status has three digits")
            for field in head.response.headerFields {
                let text = Array(field.name.rawName.utf8) + Array(field.value.utf8)
                check(!text.contains(where: { [0x0D, 0x0A, 0x00].contains($0) }), "no CR, LF or NUL in a field")
            }
        case (.success(nil), .success(nil)), (.failure, .failure), (.failure, .success(nil)):
            // A cut may stop before the bytes that make the whole a failure; the head's limit too.
            break
        default:
            check(false, "a head reads the same in any cut")
        }
        if let (body, _) = try? HTTP1Upgrade.dechunk(bytes) {
            check(body.count <= bytes.count, "a chunked body is no longer than its input")
        }
    }
}
