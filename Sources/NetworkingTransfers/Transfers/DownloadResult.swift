import Foundation
import NetworkingHTTP
import NetworkingCore

/// What a finished download returns: where the file is, the response, and how many bytes it holds.
public struct DownloadResult: Sendable, Hashable {
    /// The destination the file was moved to.
    public let fileURL: URL
    /// The response head of the last request (a 206 when the download resumed; a 416 when the partial file was
    /// already the whole file).
    public let response: HTTPResponse
    /// The file's length in bytes.
    public let byteCount: Int64
    /// Bytes kept from an earlier, interrupted download (0 when it started from scratch).
    public let resumedFromByte: Int64

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - fileURL: The destination.
    ///   - response: The response head.
    ///   - byteCount: The file's length.
    ///   - resumedFromByte: Bytes kept from an earlier attempt.
    public init(fileURL: URL, response: HTTPResponse, byteCount: Int64, resumedFromByte: Int64) {
        self.fileURL = fileURL
        self.response = response
        self.byteCount = byteCount
        self.resumedFromByte = resumedFromByte
    }
}
