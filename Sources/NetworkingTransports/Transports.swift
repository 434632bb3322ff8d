/// The transports and the choice between them: `import Networking` re-exports this module, which re-exports the
/// two transport modules and adds the platform's default (`DefaultTransport`). Only transport modules name a
/// transport; the umbrella and the features know `HTTPTransport` alone.
@_exported import NetworkingCurl
@_exported import NetworkingURLSession
