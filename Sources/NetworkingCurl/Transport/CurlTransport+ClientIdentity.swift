import Foundation

extension CurlTransport {
    /// A client certificate and its private key, for servers that ask for one (mutual TLS), both PEM text in memory.
    public struct ClientIdentity: Sendable, Hashable {
        /// The certificate (`-----BEGIN CERTIFICATE-----`), optionally followed by its intermediates.
        public var certificatePEM: Data
        /// The unencrypted private key (`-----BEGIN PRIVATE KEY-----` or `EC`/`RSA PRIVATE KEY`).
        public var privateKeyPEM: Data

        /// Creates an identity.
        ///
        /// - Parameters:
        ///   - certificatePEM: The certificate, PEM.
        ///   - privateKeyPEM: The unencrypted private key, PEM.
        public init(certificatePEM: Data, privateKeyPEM: Data) {
            self.certificatePEM = certificatePEM
            self.privateKeyPEM = privateKeyPEM
        }
    }
}
