import Foundation
import Testing

@testable import Networking
@testable import NetworkingHTTP
@testable import NetworkingCore
@testable import NetworkingTLS
@testable import NetworkingURLSession
@testable import NetworkingAuth
@testable import NetworkingResilience
@testable import NetworkingHTTPCache
@testable import NetworkingCookies
@testable import NetworkingObservability
@testable import NetworkingTransfers
import NetworkingTestSupport

/// Public-key pins and the policy's pure parts, checked on every platform: the digest against published vectors,
/// the pin of a certificate against what the `openssl` command computes for it, and malformed input.
@Suite struct ServerTrustTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func sha256MatchesThePublishedVectors(message: String, hex: String) {
        #expect(SHA256.digest(Data(message.utf8)).map { String(format: "%02x", $0) }.joined() == hex)
    }

    @Test func sha256OfAMillionAsMatchesThePublishedVector() {
        let digest = SHA256.digest(Data(repeating: UInt8(ascii: "a"), count: 1_000_000))
        #expect(
            digest.map { String(format: "%02x", $0) }.joined()
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test(arguments: ["rsa:2048", "ec"])
    func aCertificatesPinIsTheOneOpenSSLComputes(keyType: String) throws {
        // Given a certificate the openssl command made, and the pin it computes from the certificate's key
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cert = directory.appendingPathComponent("cert.pem").path
        var arguments = [
            "req", "-x509", "-sha256", "-newkey", keyType, "-nodes", "-days", "1", "-subj", "/CN=pin.test",
        ]
        if keyType == "ec" {
            arguments += ["-pkeyopt", "ec_paramgen_curve:prime256v1", "-pkeyopt", "ec_param_enc:named_curve"]
        }
        try Self.run(
            ["openssl"] + arguments + ["-keyout", directory.appendingPathComponent("key.pem").path, "-out", cert])
        let expected = try Self.run([
            "sh", "-c",
            "openssl x509 -in '\(cert)' -pubkey -noout | openssl pkey -pubin -outform der"
                + " | openssl dgst -sha256 -binary | base64",
        ]).trimmingCharacters(in: .whitespacesAndNewlines)

        // When the pin is computed from the DER certificate
        let der = try #require(ServerTrust.certificates(pem: String(contentsOfFile: cert, encoding: .utf8)).first)
        let pin = try #require(PublicKeyPin(certificate: der))

        // Then it is openssl's, and a policy pinning it allows the chain while another pin does not
        #expect(pin.description == "sha256/" + expected)
        #expect(PublicKeyPin(expected) == pin)
        #expect(ServerTrust(pinnedKeys: [pin]).pinsAllow(chain: [der]))
        let other = try #require(PublicKeyPin(Data(repeating: 1, count: 32).base64EncodedString()))
        #expect(!ServerTrust(pinnedKeys: [other]).pinsAllow(chain: [der]))
        #expect(ServerTrust(pinnedKeys: [other, pin]).pinsAllow(chain: [Data([0x30, 0x00]), der]))
        #expect(ServerTrust().pinsAllow(chain: []))
    }

    @Test(arguments: ["", "sha256/", "sha256/AAAA", "not base64!", "sha1/" + Data(count: 32).base64EncodedString()])
    func aPinTextThatIsNotThirtyTwoBytesOfBase64IsRefused(text: String) {
        #expect(PublicKeyPin(text) == nil)
    }

    @Test func onlyTheSystemPolicyIsSystem() throws {
        #expect(ServerTrust.system.isSystem)
        #expect(!ServerTrust(trustsSystemAuthorities: false).isSystem)
        #expect(!ServerTrust(certificateAuthorities: [Data([1])]).isSystem)
        #if canImport(Security)
            #expect(ServerTrust.isSupported)
        #else
            #expect(!ServerTrust.isSupported)
        #endif
    }

    @Test func pemTextYieldsEachCertificateAndSkipsTheRest() {
        let one = Data([0x30, 0x03, 0x02, 0x01, 0x01])
        let two = Data([0x30, 0x03, 0x02, 0x01, 0x02])
        let pem = """
            junk
            -----BEGIN PRIVATE KEY-----
            AAAA
            -----END PRIVATE KEY-----
            -----BEGIN CERTIFICATE-----
            \(one.base64EncodedString())
            -----END CERTIFICATE-----
            -----BEGIN CERTIFICATE-----
            \(two.base64EncodedString())
            -----END CERTIFICATE-----
            -----BEGIN CERTIFICATE-----
            unterminated
            """
        #expect(ServerTrust.certificates(pem: pem) == [one, two])
    }

    @Test func malformedCertificatesGiveNoPinAndNeverTrap() {
        // A seeded generator: truncations and byte flips of a real-shaped header, and random bytes.
        var generator = BehaviorFakes.SeededGenerator(seed: 0x5EED)
        let shaped: [UInt8] = [
            0x30, 0x82, 0x01, 0x0A, 0x30, 0x81, 0xF0, 0xA0, 0x03, 0x02, 0x01, 0x02, 0x02, 0x01, 0x01,
        ]
        var parsed = 0
        for round in 0..<20_000 {
            var bytes =
                round.isMultiple(of: 2)
                ? shaped : (0..<Int(generator.next() % 64)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            if !bytes.isEmpty, round.isMultiple(of: 2) {
                bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
                bytes = Array(bytes.prefix(Int(generator.next() % UInt64(bytes.count + 1))))
            }
            if PublicKeyPin(certificate: Data(bytes)) != nil { parsed += 1 }
        }
        #expect(parsed == 0)
        #expect(PublicKeyPin(certificate: Data([0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF])) == nil)
    }

    @discardableResult
    static func run(_ arguments: [String]) throws -> String {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(arguments.joined(separator: " ")) failed")
        return String(decoding: data, as: UTF8.self)
    }
}
