import Foundation
import NetworkingHTTP
import NetworkingCore

extension LoggingBehavior {
    /// Writes the line that ends a streamed call when `stream` ends: how, after how long, and how many bytes.
    func logEnd(
        of stream: HTTPBody, _ request: HTTPRequest, shownURL: String, start: Duration,
        context: RequestContext, secrets: [String]
    ) {
        let clock = clock ?? context.clock
        stream.onTermination { [self] termination in
            let elapsed = clock.now() - start
            let subject = "\(request.method.rawValue) \(shownURL) in \(milliseconds(elapsed))"
            let bytes = "\(termination.byteCount) bytes"
            let line: String
            switch termination.outcome {
            case .finished:
                line =
                    "\(tag(context)) stream finished \(subject), \(bytes)"
                    + (logsHeaders ? trailersText(stream.trailerFields) : "")
            case .cancelled:
                line = "\(tag(context)) stream cancelled \(subject), \(bytes)"
            case .failed(let error as NetworkError):
                line = "\(tag(context)) stream failed \(subject), \(bytes): \(error.kind): \(error.message)"
            case .failed(let error):
                line = "\(tag(context)) stream failed \(subject), \(bytes): \(type(of: error)): \(error)"
            }
            // The stream ends on the reader's or the transport's thread: the sink, which may suspend, runs apart.
            Task { await emit(line, secrets: secrets) }
        }
    }
}
