import Foundation

extension HTTPRequest {
    /// What a request sends after its head.
    public enum Body: Sendable, Equatable {
        /// No body.
        case none
        /// Bytes in memory, sent as they are; replayable by retries and redirects.
        case data(Data)
        /// The contents of a local file, streamed from disk with a `Content-Length` of the file's size. The file is
        /// opened again for every attempt and every 307/308 redirect, so retries and redirects resend it whole. A
        /// missing or unreadable file, or a URL that is not a `file:` URL, fails before any I/O with `NetworkError`
        /// of kind `invalidRequest` naming the path.
        case file(URL)
        /// A `multipart/form-data` body; see ``MultipartFormData``. Its file parts are read from disk for every
        /// attempt, so it is replayable; the request's `Content-Type` must carry the form's boundary
        /// (``MultipartFormData/contentType``; the client sets it).
        indirect case multipart(MultipartFormData)
        /// Bytes produced by an async sequence; see ``BodyStream``. Replayable only when restartable.
        indirect case stream(BodyStream)

        /// The bytes of an in-memory body; `nil` for the others.
        public var data: Data? {
            switch self {
            case .none, .file, .multipart, .stream: nil
            case .data(let data): data
            }
        }

        /// Whether the body can be sent again by a retry: in-memory, file and multipart bodies always can, a stream
        /// only when it is restartable (``BodyStream/isRestartable``).
        public var isReplayable: Bool {
            if case .stream(let stream) = self { stream.isRestartable } else { true }
        }

        /// Whether there is nothing to send (a file body counts as something, even an empty file).
        public var isEmpty: Bool {
            switch self {
            case .none: true
            case .data(let data): data.isEmpty
            case .file, .multipart, .stream: false
            }
        }
    }
}
