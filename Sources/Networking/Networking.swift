@_exported import NetworkingAuth
@_exported import NetworkingCookies
@_exported import NetworkingCore
@_exported import NetworkingHTTP
@_exported import NetworkingHTTPCache
@_exported import NetworkingModifiers
@_exported import NetworkingObservability
@_exported import NetworkingResilience
@_exported import NetworkingTLS
@_exported import NetworkingTransfers
@_exported import NetworkingTransports
@_exported import NetworkingWebSocket

// The API speaks Foundation's types (`URL`, `Data`, `Date`, `URLRequest`): `import Networking` brings them, so a
// sample of the guides compiles with that one import, on Linux too, where `URLRequest` is FoundationNetworking's.
@_exported import Foundation

// Linux: URLSession, URLRequest and URLResponse live in FoundationNetworking (swift-corelibs-foundation); Apple's
// Foundation has them itself (developer.apple.com/documentation/foundation/urlsession).
#if canImport(FoundationNetworking)
    @_exported import FoundationNetworking
#endif
