import Foundation
import Networking
import NetworkingTestSupport

/// Part 6: `upload-file-rss`, the peak resident memory of a process that uploads a 256 MiB file with
/// `RequestBody.file` through the client and the Foundation transport to a local sink, measured in a fresh process
/// (`--upload-phase`). The sink (a few lines of stdlib Python) reads the whole body and answers its byte count, so
/// a short upload cannot pass for a cheap one. `upload-multipart-rss` does the same with the file as the part of
/// a `MultipartFormData`, which the transport copies to a temporary file in 1 MiB chunks first.
enum UploadBenchmark {
    static let size = 256 * 1024 * 1024

    static let sinkScript = """
        import http.server, json, sys
        class Sink(http.server.BaseHTTPRequestHandler):
            def do_PUT(self):
                left, total = int(self.headers.get("Content-Length") or 0), 0
                while left > 0:
                    chunk = self.rfile.read(min(left, 1 << 20))
                    if not chunk: break
                    left -= len(chunk); total += len(chunk)
                body = json.dumps({"bytes": total}).encode()
                self.send_response(200); self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
            def log_message(self, *args): pass
        server = http.server.HTTPServer(("127.0.0.1", 0), Sink)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """

    /// Runs the measurement in a fresh process and returns its peak RSS in KiB (before, after the upload).
    static func run(multipart: Bool = false) throws -> (before: Int, after: Int) {
        let (status, words, output) = try Phase.run(["--upload-phase"] + (multipart ? ["multipart"] : []))
        let numbers = words.compactMap { Int($0) }
        guard status == 0, numbers.count == 2 else {
            throw BenchmarkError("the upload phase failed: \(output)")
        }
        return (numbers[0], numbers[1])
    }

    /// The measured process: writes the file, starts the sink, uploads, returns peak RSS before and after (KiB).
    static func phase(multipart: Bool) async throws -> (Int, Int) {
        struct Received: Decodable, Sendable { let bytes: Int }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("upload-bench-\(UUID()).bin")
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw BenchmarkError("cannot create \(file.path)")
        }
        defer { try? FileManager.default.removeItem(at: file) }
        let handle = try FileHandle(forWritingTo: file)
        let chunk = Data(repeating: 0x61, count: 1 << 20)
        for _ in 0..<(size >> 20) { try handle.write(contentsOf: chunk) }
        try handle.close()
        let sink = ChildProcess()
        sink.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        sink.arguments = ["python3", "-c", sinkScript]
        let portPipe = Pipe()
        sink.standardOutput = portPipe
        try sink.run()
        defer { sink.terminate() }
        var portText = Data()
        while !portText.contains(0x0A), let byte = try portPipe.fileHandleForReading.read(upToCount: 1), !byte.isEmpty {
            portText.append(byte)
        }
        guard let port = Int(String(decoding: portText, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else { throw BenchmarkError("the upload sink did not start") }
        let client = NetworkClient(baseURL: URL(string: "http://127.0.0.1:\(port)"))
        let before = Measure.peakResidentKiB()
        var form = MultipartFormData()
        form.appendFile(file, name: "file")
        let received = try await client.send(
            NetworkRequest<Received>(.put, path: "/upload", body: multipart ? .multipart(form) : .file(file)),
            behavior: EmptyBehavior())
        guard received.bytes >= size else { throw BenchmarkError("the sink received \(received.bytes) of \(size)") }
        return (before, Measure.peakResidentKiB())
    }
}
