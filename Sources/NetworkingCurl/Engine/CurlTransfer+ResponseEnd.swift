import CCurlShim
import Foundation
import NetworkingHTTP

/// The end of the response while the request body still sends (full duplex).
///
/// libcurl ends a transfer only when both directions are done: a response the server has ended is held open until
/// the request body ends as well, and libcurl says nothing of the response's end before that (libcurl 7.88
/// `lib/transfer.c`: a chunked body's end, `CHUNKE_STOP`, only clears its receive bit; `lib/http_chunks.c` hands
/// over no end of the trailer section; `lib/http2.c` passes an HTTP/2 stream's trailers and end only when the
/// stream closes, which needs our END_STREAM too). A body that waits on the response (``HTTPBody/waitsOnResponse``,
/// or any produced body in practice) would then never end: its producer waits for the response's end, which waits
/// for the producer. So where the request body is produced, the transport finds the end itself:
///
/// - **Chunked** (HTTP/1.1): libcurl passes the raw chunked bytes through (`CURLOPT_HTTP_TRANSFER_DECODING` off)
///   and ``ChunkedDecoder`` reads the chunks, the trailer section and the end. libcurl still frames the response
///   itself, so the connection stays in step.
/// - **A `Content-Length`**: the body's bytes are counted (HTTP/1.1 and HTTP/2), unless the response announces
///   trailers (`Trailer`), which libcurl hands over only at the transfer's end.
/// - **No body** (204, 304): at the head.
/// - **Framed by the connection's close**: libcurl itself stops sending once it has read to the close.
///
/// Where libcurl decodes a content coding (the request named no `Accept-Encoding`), the transport cannot see the
/// raw bytes it would need; a body that waits on the response asks for no coding for that reason. The watch is on
/// for a produced request body whose response libcurl does not decode (``CurlTransfer/configure(_:)``).
///
/// Once the response has ended, its body ends for the reader and the transfer goes on sending what is left of the
/// request body until its producer ends: an HTTP/1.1 connection is then reusable, and a server reading the rest gets
/// it. If the server closes the connection (RFC 9112 §9.6), or resets an HTTP/2 stream with NO_ERROR after a
/// complete response (RFC 9113 §8.1), the rest is dropped and the call's answer stands (``complete(result:)``).
extension CurlTransfer {
    /// Where a watched response ends.
    enum ResponseEnd: Equatable {
        /// When libcurl completes the transfer (nothing else tells it).
        case atCompletion
        /// After the last chunk and the trailer section, read by the transport.
        case chunked(ChunkedDecoder)
        /// After this many more body bytes.
        case counting(remaining: Int64)
        /// It has ended: the body was handed its end.
        case ended

        static func == (lhs: ResponseEnd, rhs: ResponseEnd) -> Bool {
            switch (lhs, rhs) {
            case (.atCompletion, .atCompletion), (.ended, .ended), (.chunked, .chunked): true
            case (.counting(let a), .counting(let b)): a == b
            default: false
            }
        }
    }

    /// Turns the watch on before the transfer starts. Where libcurl decodes no content coding, it also passes chunked
    /// bodies through undecoded from now on (libcurl decodes a coding inside its chunk decoder: with the chunks
    /// passed through, a coded body would reach the reader undecoded).
    func watchResponseEndWhileSending() {
        watchesResponseEnd = true
        passesChunksThrough = !decodes
        if passesChunksThrough { _ = ncurl_setopt_long(api, easy, CurlOption.httpTransferDecoding, 0) }
    }

    /// Decides, at the head, where the response ends (loop thread); `decoded` when libcurl decodes its body (the
    /// bytes the reader gets are then not the ones `Content-Length` counts).
    func watchResponseEnd(status: Int, decoded: Bool) {
        if status == 204 || status == 304 || head.contentLength == 0 {
            endResponse(trailerFields: nil)
        } else if head.isChunked {
            if passesChunksThrough { responseEnd = .chunked(ChunkedDecoder()) }
        } else if let length = head.contentLength, !decoded, !head.announcesTrailers {
            responseEnd = .counting(remaining: length)
        }
    }

    /// Body bytes of a watched response (loop thread): raw chunked bytes or counted ones. Returns what libcurl must
    /// be told: the count taken, or 0 to stop.
    func receiveWatchingEnd(_ bytes: UnsafeRawBufferPointer, into body: BodyBuffer) -> Int {
        switch responseEnd {
        case .atCompletion:
            return deliver(Data(bytes), to: body) ? bytes.count : 0
        case .ended:
            // Past the end: libcurl passes a whole read through, which may hold bytes after the last chunk.
            return bytes.count
        case .counting(let remaining):
            let count = Int(min(Int64(bytes.count), remaining))
            if count > 0, !deliver(Data(bytes[..<count]), to: body) { return 0 }
            if remaining == Int64(count) {
                endResponse(trailerFields: nil)
            } else {
                responseEnd = .counting(remaining: remaining - Int64(count))
            }
            return bytes.count
        case .chunked(var decoder):
            responseEnd = .ended  // the decoder is mutated alone, not copied
            var stopped = false
            decoder.decode(bytes) { piece in
                if !stopped, !deliver(Data(piece), to: body) { stopped = true }
            }
            responseEnd = .chunked(decoder)
            if stopped { return 0 }
            if let failure = decoder.failure {
                framingFailure = failure
                return 0
            }
            if decoder.isComplete { endResponse(trailerFields: decoder.trailerFields) }
            return bytes.count
        }
    }

    /// The response has ended while the transfer may still send (loop thread): the reader gets the end now.
    func endResponse(trailerFields: HTTPFields?) {
        responseEnd = .ended
        body?.finish(.finished, trailerFields: trailerFields?.isEmpty == false ? trailerFields : nil)
        // Nothing more will arrive, and libcurl completes no transfer whose receiving is paused: a pause the reader
        // asked for would keep the connection after the request body ends.
        if pausedReceiving {
            pausedReceiving = false
            applyPause()
        }
    }

    /// Why the trailer fields a produced body finished with cannot follow it on this transfer; `nil` when they can.
    /// A body that may finish with them goes chunked over HTTP/1.1 (``configure(_:)``); one with a length is
    /// refused before its last byte (``CurlUpload``). This catches an HTTP/2 connection all the same, where libcurl
    /// would drop them (it knows the version once the response has begun).
    var trailersCannotBeSent: String? {
        var version = 0
        _ = ncurl_getinfo_long(api, easy, CurlOption.infoHTTPVersion, &version)
        // CURL_HTTP_VERSION_2_0 is 3, HTTP/3 30.
        guard version < 3 else {
            return "the request body finished with trailer fields, which libcurl cannot send on HTTP/2; the request "
                + "was not completed"
        }
        return nil
    }
}
