import CCurlShim
import Foundation
import NetworkingCore
import NetworkingHTTP
import NetworkingTLS

extension CurlTransfer {
    /// Sets every option of the request on the easy handle (from ``prepare(_:)``: on the caller's thread before the
    /// hand-over, or on the loop thread as a call that waited enters the engine). Returns why the request cannot be
    /// sent, or `nil`.
    func configure(_ settings: CurlSettings) -> String? {
        let api = self.api
        let user = Unmanaged.passUnretained(self).toOpaque()
        guard let url = url?.absoluteString else { return "the request's target cannot form a URL" }
        var failed: [String] = []
        func check(_ result: Int32, _ what: String) {
            if result != 0 { failed.append("\(what): \(loop.library.describe(result))") }
        }
        check(CurlText.set(api, easy, CurlOption.url, url), "URL")
        _ = ncurl_setopt_long(api, easy, CurlOption.noSignal, 1)
        // libcurl's read size stays its default (16 KiB): with 128 KiB, libcurl 7.88 kept reading into its own pause
        // buffer while the transfer was paused, and a slow reader's process grew by 90 MiB over 200 MiB
        // (`slow-reader-rss`); downloads were no faster.
        _ = ncurl_setopt_long(api, easy, CurlOption.followLocation, 0)
        _ = ncurl_setopt_long(api, easy, CurlOption.pathAsIs, 1)
        _ = ncurl_setopt_long(api, easy, CurlOption.protocols, CurlOption.protocolsHTTPAndHTTPS)
        _ = ncurl_setopt_long(api, easy, CurlOption.suppressConnectHeaders, 1)
        // Over TLS, a new call waits for a connection being set up, which may turn out to carry HTTP/2, rather
        // than open another; plain-HTTP connections are never shared, so there it would only make calls queue.
        if HTTPToken.lowercasedASCII(self.url?.scheme ?? "") == "https" {
            _ = ncurl_setopt_long(api, easy, CurlOption.pipeWait, 1)
        }
        if let errorBuffer { _ = ncurl_setopt_pointer(api, easy, CurlOption.errorBuffer, errorBuffer) }
        _ = ncurl_setopt_data_fn(api, easy, CurlOption.writeFunction, CurlCallbacks.write)
        _ = ncurl_setopt_pointer(api, easy, CurlOption.writeData, user)
        _ = ncurl_setopt_data_fn(api, easy, CurlOption.headerFunction, CurlCallbacks.header)
        _ = ncurl_setopt_pointer(api, easy, CurlOption.headerData, user)
        // HTTP/1.1 for a body that waits on the response or may have trailer fields (set on it, or given at its end
        // by the producer of a body made by HTTPBody.makeStream): libcurl reports an HTTP/2 response's end only once
        // the request has ended too, and sends no request trailers on HTTP/2 (7.88 `lib/http.c` turns the chunked
        // upload off there); see `CurlTransfer+ResponseEnd.swift`.
        let body = request.body
        let http1 =
            settings.http1Only || body.waitsOnResponse || body.trailerFieldsToSend != nil
            || (body.isStreaming && body.length == nil)
        _ = ncurl_setopt_long(
            api, easy, CurlOption.httpVersion, http1 ? CurlOption.httpVersion1_1 : CurlOption.httpVersion2TLS)
        settings.applyProxy(to: easy, api: api, check: check)
        settings.applyTrust(to: easy, api: api, check: check)
        configureMethodAndBody(user: user)
        configureHeaders()
        // A produced body may still be sending when the response ends: the transport then finds that end itself.
        if let upload, upload.isProduced { watchResponseEndWhileSending() }
        return failed.isEmpty ? nil : failed.joined(separator: "; ")
    }

    private func configureMethodAndBody(user: UnsafeMutableRawPointer) {
        let method = request.method.rawValue
        let body = request.body
        let sendsBody = !body.isEmpty || ["POST", "PUT", "PATCH"].contains(method)
        if method == "HEAD" {
            _ = ncurl_setopt_long(api, easy, CurlOption.noBody, 1)
            return
        }
        guard sendsBody else {
            if method != "GET" { _ = CurlText.set(api, easy, CurlOption.customRequest, method) }
            return
        }
        // POST mode with the read callback: libcurl sends Content-Length (or chunked when the length is unknown)
        // and asks for the bytes as it sends them. The method is then named as the request says.
        _ = ncurl_setopt_long(api, easy, CurlOption.post, 1)
        if method != "POST" { _ = CurlText.set(api, easy, CurlOption.customRequest, method) }
        let upload = CurlUpload(body, observer: observer)
        self.upload = upload
        // Trailer fields follow a chunked body only: one that has them goes chunked whatever its length; one made
        // by a producer may finish with them (HTTPBody.Continuation.finish(trailerFields:)).
        let trailers = body.trailerFieldsToSend != nil
        sendsChunked = trailers || upload.length == nil
        _ = ncurl_setopt_offset(api, easy, CurlOption.postFieldSizeLarge, sendsChunked ? -1 : upload.length ?? -1)
        if trailers || (body.isStreaming && sendsChunked) {
            _ = ncurl_setopt_trailer_fn(api, easy, CurlOption.trailerFunction, CurlCallbacks.trailer)
            _ = ncurl_setopt_pointer(api, easy, CurlOption.trailerData, user)
        }
        _ = ncurl_setopt_data_fn(api, easy, CurlOption.readFunction, CurlCallbacks.read)
        _ = ncurl_setopt_pointer(api, easy, CurlOption.readData, user)
        _ = ncurl_setopt_seek_fn(api, easy, CurlOption.seekFunction, CurlCallbacks.seek)
        _ = ncurl_setopt_pointer(api, easy, CurlOption.seekData, user)
        upload.start(body, chunked: sendsChunked) { [weak self] in
            guard let self else { return }
            loop.submit(.resumeSending(self))
        }
    }

    /// The request's fields as written (an empty value as `Name;`, libcurl's spelling for it), and libcurl's own
    /// defaults removed unless the request sets them: `Accept`, `Expect` (no 100-continue round trip), and the
    /// form `Content-Type` that POST mode would add.
    private func configureHeaders() {
        var list: UnsafeMutableRawPointer?
        let fields = request.headerFields
        for field in fields {
            let line = field.value.isEmpty ? "\(field.name.rawName);" : "\(field.name.rawName): \(field.value)"
            list = api.pointee.slist_append(list, line)
        }
        if fields[.accept] == nil { list = api.pointee.slist_append(list, "Accept:") }
        if fields[HTTPField.Name("Expect")] == nil { list = api.pointee.slist_append(list, "Expect:") }
        if upload != nil, fields[.contentType] == nil { list = api.pointee.slist_append(list, "Content-Type:") }
        // A body that waits on the response asks for no coding: the transport must read the response's own bytes
        // to see it end (`CurlTransfer+ResponseEnd.swift`).
        if fields[.acceptEncoding] == nil, !request.body.waitsOnResponse {
            // libcurl names the codings it decodes (gzip, deflate, br, zstd as built) and decodes them.
            _ = CurlText.set(api, easy, CurlOption.acceptEncoding, "")
            decodes = true
        }
        headerList = list
        _ = ncurl_setopt_pointer(api, easy, CurlOption.httpHeader, list)
    }
}
