import CCurlShim
import NetworkingCore

extension CurlTransfer {
    /// Reports libcurl's facts about the finished transfer to the attempt's observer, if there is one.
    func reportMetrics() {
        guard let observer else { return }
        func offset(_ info: Int32) -> Int64? {
            var value: Int64 = 0
            return ncurl_getinfo_offset(api, easy, info, &value) == 0 ? value : nil
        }
        func long(_ info: Int32) -> Int? {
            var value = 0
            return ncurl_getinfo_long(api, easy, info, &value) == 0 ? value : nil
        }
        func duration(_ info: Int32) -> Duration? {
            offset(info).flatMap { $0 > 0 ? Duration.microseconds($0) : nil }
        }
        let version: String? =
            switch long(CurlOption.infoHTTPVersion) {
            case 1: "HTTP/1.0"
            case 2: "HTTP/1.1"
            case 3: "HTTP/2"
            case 30: "HTTP/3"
            default: nil
            }
        let sent = offset(CurlOption.infoSizeUploadT)
        if let sent, sent > 0 { observer.bytesSent(sent, of: upload?.length) }
        observer.transportReported(
            TransportMetrics(
                nameLookup: duration(CurlOption.infoNameLookupTimeT), connect: duration(CurlOption.infoConnectTimeT),
                secureConnection: duration(CurlOption.infoAppConnectTimeT),
                firstByte: duration(CurlOption.infoStartTransferTimeT),
                reusedConnection: long(CurlOption.infoNumConnects).map { $0 == 0 }, httpVersion: version,
                bytesSent: sent, bytesReceived: offset(CurlOption.infoSizeDownloadT)))
    }
}
