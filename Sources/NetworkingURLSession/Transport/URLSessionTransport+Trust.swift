import NetworkingHTTP
import NetworkingCore
import NetworkingTLS

// Apple docs checked: URLSession.AuthChallengeDisposition .useCredential with URLCredential(trust:) and
// .cancelAuthenticationChallenge, SecTrust evaluation (developer.apple.com/documentation/foundation/
// urlsessiondelegate/urlsession(_:didreceive:completionhandler:)); Linux has no SecTrust.
#if canImport(Security)
    import Foundation
    import Security

    extension URLSessionTransportDelegate {
        /// The answer to a server-trust challenge under `ServerTrust`, or `nil` when the challenge is not one or
        /// the policy is the system's (then Foundation's default handling applies). A refusal is noted on the call so
        /// that the cancelled task ends as a TLS failure rather than a cancellation.
        func evaluateServerTrust(_ challenge: URLAuthenticationChallenge, task: URLSessionTask) -> (
            disposition: URLSession.AuthChallengeDisposition, credential: URLCredential?
        )? {
            guard !serverTrust.isSystem,
                challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
                let trust = challenge.protectionSpace.serverTrust
            else { return nil }
            if Self.accepts(trust, under: serverTrust) {
                return (.useCredential, URLCredential(trust: trust))
            }
            _ = withCall(of: task) { call, _ in call.trustRefused = true }
            return (.cancelAuthenticationChallenge, nil)
        }

        /// Whether `trust` leads to a trusted authority and, when pins are set, carries a pinned key.
        static func accepts(_ trust: SecTrust, under policy: ServerTrust) -> Bool {
            // Own authorities, or none at all: `trustsSystemAuthorities: false` with no authority trusts nothing,
            // rather than quietly keeping the system's.
            if !policy.certificateAuthorities.isEmpty || !policy.trustsSystemAuthorities {
                let anchors = policy.certificateAuthorities.compactMap {
                    SecCertificateCreateWithData(nil, $0 as CFData)
                }
                guard anchors.count == policy.certificateAuthorities.count,
                    SecTrustSetAnchorCertificates(trust, anchors as CFArray) == errSecSuccess,
                    SecTrustSetAnchorCertificatesOnly(trust, !policy.trustsSystemAuthorities) == errSecSuccess
                else { return false }
            }
            guard SecTrustEvaluateWithError(trust, nil) else { return false }
            let chain = (SecTrustCopyCertificateChain(trust) as? [SecCertificate]) ?? []
            return policy.pinsAllow(chain: chain.map { SecCertificateCopyData($0) as Data })
        }
    }
#endif
