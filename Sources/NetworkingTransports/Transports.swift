/// The transports and the choice between them: `import Networking` re-exports this module, which re-exports the
/// two transport modules and adds the platform's default (`DefaultTransport`). Only transport modules name a
/// transport; the umbrella and the features know `HTTPTransport` alone. The libcurl transport is part of the build
/// on Linux and macOS only (Package.swift): iOS, tvOS and watchOS have no libcurl to load.
// NetworkingCurl is a dependency on Linux and macOS only (Package.swift, .when(platforms:)).
#if os(Linux) || os(macOS)
    @_exported import NetworkingCurl
#endif
@_exported import NetworkingURLSession
