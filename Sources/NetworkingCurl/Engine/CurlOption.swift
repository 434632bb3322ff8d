/// The numbers of libcurl's ABI that the transport uses, from its documented, stable `curl.h`: option, info and
/// result codes are part of the ABI and never change meaning. Written here rather than included, so the package
/// needs no libcurl header.
enum CurlOption {
    // CURLoption: type base + number (long 0, object pointer 10000, function pointer 20000, off_t 30000, blob 40000).
    static let writeData: Int32 = 10_001
    static let url: Int32 = 10_002
    static let proxy: Int32 = 10_004
    static let readData: Int32 = 10_009
    static let errorBuffer: Int32 = 10_010
    static let writeFunction: Int32 = 20_011
    static let readFunction: Int32 = 20_012
    static let postFieldSize: Int32 = 60
    static let httpHeader: Int32 = 10_023
    static let headerData: Int32 = 10_029
    static let customRequest: Int32 = 10_036
    static let noProgress: Int32 = 43
    static let noBody: Int32 = 44
    static let post: Int32 = 47
    static let followLocation: Int32 = 52
    static let xferInfoData: Int32 = 10_057
    static let caInfo: Int32 = 10_065
    static let caPath: Int32 = 10_097
    static let headerFunction: Int32 = 20_079
    static let httpGet: Int32 = 80
    static let httpVersion: Int32 = 84
    static let noSignal: Int32 = 99
    static let acceptEncoding: Int32 = 10_102
    static let postFieldSizeLarge: Int32 = 30_120
    static let noProxy: Int32 = 10_177
    static let protocols: Int32 = 181
    static let seekFunction: Int32 = 20_167
    static let seekData: Int32 = 10_168
    static let xferInfoFunction: Int32 = 20_219
    static let pinnedPublicKey: Int32 = 10_230
    static let pathAsIs: Int32 = 234
    static let pipeWait: Int32 = 237
    static let suppressConnectHeaders: Int32 = 265
    static let sslCertBlob: Int32 = 40_291
    static let sslKeyBlob: Int32 = 40_292
    static let caInfoBlob: Int32 = 40_309
    static let bufferSize: Int32 = 98
    static let httpContentDecoding: Int32 = 158
    static let httpTransferDecoding: Int32 = 157
    static let trailerFunction: Int32 = 20_283
    static let trailerData: Int32 = 10_284

    // CURLMoption.
    static let multiMaxConnects: Int32 = 6
    static let multiMaxHostConnections: Int32 = 7
    static let multiPipelining: Int32 = 3

    // CURLINFO: type base + number (string 0x100000, long 0x200000, off_t 0x600000).
    static let infoResponseCode: Int32 = 0x20_0002
    static let infoNumConnects: Int32 = 0x20_001A
    static let infoHTTPVersion: Int32 = 0x20_002E
    static let infoSizeUploadT: Int32 = 0x60_0007
    static let infoSizeDownloadT: Int32 = 0x60_0008
    static let infoNameLookupTimeT: Int32 = 0x60_0033
    static let infoConnectTimeT: Int32 = 0x60_0034
    static let infoStartTransferTimeT: Int32 = 0x60_0036
    static let infoAppConnectTimeT: Int32 = 0x60_0038
    static let infoCAInfo: Int32 = 0x10_003D

    // Return values of callbacks, pause bits, HTTP versions.
    static let writeFunctionPause = 0x1000_0001
    static let readFunctionPause = 0x1000_0001
    static let readFunctionAbort = 0x1000_0000
    static let trailerFunctionOK: Int32 = 0
    static let trailerFunctionAbort: Int32 = 1
    static let seekOK: Int32 = 0
    static let seekCannotSeek: Int32 = 2
    static let pauseReceive: Int32 = 1
    static let pauseSend: Int32 = 4
    static let pauseNone: Int32 = 0
    static let httpVersion1_1 = 2
    static let httpVersion2TLS = 4
    static let protocolsHTTPAndHTTPS = 3
}
