// The NetworkingCore product brings the types its API speaks in (NetworkingHTTP), so no module that is not a product has
// to be imported by name.
@_exported import NetworkingHTTP
