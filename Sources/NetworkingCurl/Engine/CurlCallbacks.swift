import CCurlShim
import Foundation
import NetworkingCore

/// libcurl's callbacks: C functions that find their transfer in the user pointer (unretained: the loop holds
/// every transfer that libcurl can call back for). They run on the loop thread.
enum CurlCallbacks {
    static func transfer(_ user: UnsafeMutableRawPointer?) -> CurlTransfer {
        Unmanaged<CurlTransfer>.fromOpaque(user!).takeUnretainedValue()
    }

    static let write: ncurl_data_fn = { buffer, size, count, user in
        let transfer = CurlCallbacks.transfer(user)
        return transfer.receive(UnsafeRawBufferPointer(start: buffer, count: size * count))
    }

    static let header: ncurl_data_fn = { buffer, size, count, user in
        let transfer = CurlCallbacks.transfer(user)
        let line = UnsafeRawBufferPointer(start: buffer, count: size * count)
        let complete = transfer.head.take(line)
        // A head that cannot be used stops the transfer here (libcurl: "Failed writing header").
        if transfer.head.failure != nil { return 0 }
        if complete { transfer.openBody() }
        return size * count
    }

    static let read: ncurl_data_fn = { buffer, size, count, user in
        let transfer = CurlCallbacks.transfer(user)
        guard let upload = transfer.upload else { return 0 }
        let result = upload.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
        if result == CurlOption.readFunctionPause { transfer.pausedSending = true }
        // The end of the body: trailer fields it finished with must go out after it, or the request must not end
        // as if complete without them.
        if result == 0, upload.trailerFields != nil, let problem = transfer.trailersCannotBeSent {
            upload.fail(TransportError(.other, problem))
            return CurlOption.readFunctionAbort
        }
        return result
    }

    static let trailer: ncurl_trailer_fn = { list, user in
        let transfer = CurlCallbacks.transfer(user)
        guard let list, let fields = transfer.upload?.trailerFields else { return CurlOption.trailerFunctionOK }
        let api = transfer.api
        var lines: UnsafeMutableRawPointer?
        for field in fields {
            // libcurl frees the list once it has written the fields.
            lines = api.pointee.slist_append(lines, "\(field.name.rawName): \(field.value)")
        }
        list.pointee = lines
        return CurlOption.trailerFunctionOK
    }

    static let seek: ncurl_seek_fn = { user, offset, origin in
        let transfer = CurlCallbacks.transfer(user)
        guard origin == 0, let upload = transfer.upload, upload.seek(to: offset) else {
            return CurlOption.seekCannotSeek
        }
        return CurlOption.seekOK
    }
}
