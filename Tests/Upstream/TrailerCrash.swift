// The reproduction program of swift-corelibs-foundation-trailers.md: swiftc TrailerCrash.swift && ./TrailerCrash
// (with Tests/Servers/foundation_repro_server.py running). Not part of any target.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class Delegate: NSObject, URLSessionDataDelegate {
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        print("body:", String(decoding: data, as: UTF8.self))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        print(
            "status:", (task.response as? HTTPURLResponse)?.statusCode ?? -1, "error:", error.map { "\($0)" } ?? "none")
        exit(0)
    }
}

let path = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "/trailers"
let session = URLSession(configuration: .ephemeral, delegate: Delegate(), delegateQueue: nil)
session.dataTask(with: URL(string: "http://127.0.0.1:8765" + path)!).resume()
dispatchMain()
