// The NetworkingURLSession product brings the types its API speaks in (the HTTP model, the trust settings), so no module that
// is not a product has to be imported by name.
@_exported import NetworkingHTTP
@_exported import NetworkingTLS
