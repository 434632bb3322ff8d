import Foundation

extension HTTPBody {
    /// The trailer fields: fields sent after the body's last byte (RFC 9110 §6.5), such as a checksum a sender
    /// computes while it sends.
    ///
    /// - **A body arriving** (a response read as a stream or collected by the client): those the server sent after
    ///   the body (a chunked HTTP/1.1 trailer section, or HTTP/2's trailing HEADERS), available once the body has
    ///   been read to its end; `nil` before that, when none came, and on a transport that cannot read them
    ///   (`URLSessionTransport`).
    /// - **A request body**: set them to have them sent after its last chunk. The body then goes chunked over
    ///   HTTP/1.1 on `CurlTransport` (trailers need the chunked framing, and libcurl sends none on HTTP/2);
    ///   `URLSessionTransport`, which has no way to send them, refuses the request at once with a `TransportError`.
    ///   For fields known only once the body has been produced, send a body made by
    ///   ``makeStream(length:bufferLimit:onDemand:)`` and end it with ``Continuation/finish(trailerFields:)``.
    /// - **A body in memory** (a mock's, a fixture's, the HTTP cache's): the fields it serves.
    ///
    /// ```swift
    /// var body = HTTPBody.data(payload)
    /// body.trailerFields = ["X-Checksum": checksum]
    /// let request = HTTPRequest(method: .put, url: uploadURL, body: body)
    /// ```
    ///
    /// Names and values are checked as header fields are (``HTTPFields``). A sender must not put in a trailer a
    /// field that frames the message, routes it or authenticates it (RFC 9110 §6.5.1), and a recipient does not
    /// merge trailers into the header fields: they stay apart here.
    public var trailerFields: HTTPFields? {
        get { buffer?.trailerFields ?? givenTrailerFields }
        set { givenTrailerFields = newValue }
    }

    /// The trailer fields a transport sends after this request body's last chunk: those set on it, or those its
    /// producer finished it with; `nil` when there are none.
    package var trailerFieldsToSend: HTTPFields? {
        guard let fields = trailerFields, !fields.isEmpty else { return nil }
        return fields
    }

    /// Whether sending this request body needs more than sending bytes in order: its producer may wait on the
    /// response (``waitsOnResponse``), or trailer fields follow it. A transport that cannot do either refuses the
    /// request at once with this reason; `nil` when nothing of the kind is asked.
    package var fullDuplexOrTrailersProblem: String? {
        if waitsOnResponse {
            return "its body waits on the response (HTTPBody.waitsOnResponse: full duplex)"
        }
        if givenTrailerFields?.isEmpty == false {
            return "its body has trailer fields to send after it (HTTPBody.trailerFields)"
        }
        return nil
    }
}
