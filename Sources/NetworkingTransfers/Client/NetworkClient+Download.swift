import Foundation
import NetworkingHTTP
import NetworkingCore

extension NetworkClient {
    /// Downloads the body of `request` into the file at `destination`, with its progress.
    ///
    /// ```swift
    /// let call = client.download(NetworkRequest<Data>(path: "/files/big.iso"), to: destination)
    /// for await step in call.progress { print(step) }
    /// let result = try await call.value
    /// ```
    /// The body is streamed (``stream(_:behavior:)``: every behavior applies, an idle limit instead of a total
    /// one, no size limit unless `maximumSize` is set) and written as it arrives to `<destination>.partial`, in constant memory (each chunk
    /// within the transport's delivery of it, gathered into 128 KiB writes: no chunk waits for a reader); when it is
    /// complete the file is renamed onto `destination` in one step, replacing any file there. If the call fails
    /// the partial file stays, with the response's validator (a strong `ETag`, else `Last-Modified`) in
    /// `<destination>.partial-validator`, and the next download to the same destination resumes it: it sends
    /// `Range: bytes=N-` and `If-Range: <validator>`, appends a 206 that starts at byte N, starts over on a 200 (the
    /// file changed, or the server ignores ranges), and treats a 416 whose `Content-Range` is the partial file's
    /// length as already complete. A retry behavior retries the call only before the head arrives; a failure while
    /// the body arrives ends the call, its partial file kept, and the next `download` resumes it. A partial
    /// file without a validator is started over. A file that cannot be created, written or moved fails with kind
    /// `NetworkError/Kind/fileSystem` (`DownloadFileError`).
    ///
    /// - Parameters:
    ///   - request: What to send; its decoding is not used.
    ///   - destination: A file URL; its folder must exist.
    ///   - maximumSize: The most bytes the file may have; `nil` (the default) for no limit. A response announcing
    ///     more, or a body growing past it, fails the call with kind `transport(responseTooLarge)` and discards the
    ///     partial file.
    ///   - behavior: Behavior for this call only; the client-wide behavior wraps it.
    /// - Returns: The running call: its progress (bytes received for the file and expected, monotonic, ending at
    ///   the file's length) and its `DownloadResult`.
    public func download<Response>(
        _ request: NetworkRequest<Response>, to destination: URL, maximumSize: Int64? = nil,
        behavior: any RequestBehavior = EmptyBehavior()
    ) -> NetworkCall<DownloadResult> {
        let reporter = TransferProgressReporter()
        let operation: @Sendable () async throws -> DownloadResult = { [self] in
            try await runDownload(
                request, to: destination, maximumSize: maximumSize, behavior: behavior, reporter: reporter)
        }
        return NetworkCall(reporter: reporter, total: \.byteCount, operation: operation)
    }

    private func runDownload<Response>(
        _ request: NetworkRequest<Response>, to destination: URL, maximumSize: Int64?, behavior: any RequestBehavior,
        reporter: TransferProgressReporter
    ) async throws -> DownloadResult {
        let partial = PartialDownload(destination: destination.standardizedFileURL)
        let call = try prepare(request, behavior: behavior, form: .download)
        let (name, built, attempt, run) = (call.name, call.built, call.attempt, call.run)
        let used = LockedBox(DownloadResume(partialBytes: 0, validator: nil))
        let terminal: NextHandler = { request in
            var request = request
            let rule = partial.rule()
            used.withLock { $0 = rule }
            for (field, value) in rule.requestFields { request.headerFields[field] = value }
            return try await attempt.run(request)
        }
        let fileError = { (error: DownloadFileError, response: HTTPResponse?) in
            NetworkError(
                .fileSystem, requestName: name, message: error.description, builtRequest: built, response: response,
                underlyingError: error)
        }
        let response: HTTPResponse
        let body: HTTPResponse.Body
        do {
            (response, body) = try await run(terminal)
        } catch let error as NetworkError where error.kind == .unacceptableStatus(416) {
            let rule = used.current
            let decision = rule.decide(
                status: 416, contentRange: error.response?.headerFields[.contentRange], contentLength: nil)
            guard decision == .complete, let head = error.response else {
                partial.discard()
                throw error
            }
            do { try partial.moveIntoPlace() } catch let error as DownloadFileError { throw fileError(error, head) }
            reporter.report(completedBytes: rule.partialBytes, expectedBytes: rule.partialBytes)
            return DownloadResult(
                fileURL: partial.destination, response: head, byteCount: rule.partialBytes,
                resumedFromByte: rule.partialBytes)
        }
        let stream = body
        let rule = used.current
        let fields = response.headerFields
        let decision = rule.decide(
            status: response.status.code, contentRange: fields[.contentRange],
            contentLength: fields[.contentLength].flatMap { Int64($0.trimmingSpacesAndTabs) })
        let (appending, expected): (Bool, Int64?)
        switch decision {
        case .append(let total): (appending, expected) = (true, total)
        case .restart(let total): (appending, expected) = (false, total)
        case .complete, .discard:
            stream.cancel()
            partial.discard()
            let reason = if case .discard(let reason) = decision { reason } else { "an unexpected answer" }
            throw NetworkError(
                .transport(.badServerResponse), requestName: name,
                message: "the download cannot resume: \(reason); the partial file was discarded",
                builtRequest: built, response: response)
        }
        let start = appending ? rule.partialBytes : 0
        let tooLarge = { (size: String) in
            NetworkError(
                .transport(.responseTooLarge), requestName: name,
                message: "the download \(size); its maximum size is \(maximumSize ?? 0) bytes, and nothing is kept",
                builtRequest: built, response: response)
        }
        if let maximumSize, let expected, expected > maximumSize {
            stream.cancel()
            partial.discard()
            throw tooLarge("announces \(expected) bytes")
        }
        let writer: DownloadWriter
        do {
            let handle = try partial.open(appending: appending)
            writer = DownloadWriter(
                handle: handle, partial: partial, written: start, expected: expected, reporter: reporter)
        } catch let error as DownloadFileError {
            stream.cancel()
            throw fileError(error, response)
        }
        partial.storeValidator(DownloadResume.validator(etag: fields[.eTag], lastModified: fields[.lastModified]))
        reporter.report(completedBytes: start, expectedBytes: expected)
        // Each chunk goes into the file in the transport's own call (gathered into large writes): nothing waits in
        // memory for this task, so memory stays flat even where the transport cannot be slowed down.
        let written: Int64
        let received = LockedBox(start)
        do {
            _ = try await Self.drain(
                stream,
                into: { chunk in
                    if let maximumSize {
                        let total = received.withLock {
                            $0 += Int64(chunk.count)
                            return $0
                        }
                        if total > maximumSize { throw DownloadSizeExceeded() }
                    }
                    try writer.append(chunk)
                })
            written = try writer.close()
        } catch
            where error is DownloadSizeExceeded || (error as? NetworkError)?.underlyingError is DownloadSizeExceeded
        {
            _ = try? writer.close()
            partial.discard()
            throw tooLarge("grew past \(maximumSize ?? 0) bytes")
        } catch {
            // What arrived before the failure stays in the file, for the next download to resume from.
            _ = try? writer.close()
            if let failure = writer.failure { throw fileError(failure, response) }
            throw error
        }
        if let expected, written != expected {
            throw NetworkError(
                .transport(.connectionLost), requestName: name,
                message: "the body ended after \(written) of \(expected) bytes; the partial file is kept for resuming",
                builtRequest: built, response: response)
        }
        do { try partial.moveIntoPlace() } catch let error as DownloadFileError { throw fileError(error, response) }
        return DownloadResult(
            fileURL: partial.destination, response: response, byteCount: written,
            resumedFromByte: appending ? rule.partialBytes : 0)
    }
}

extension NetworkClient {
    /// Hands every chunk of `body` to `sink`: for a body arriving, in the producer's own call (see
    /// `BodyBuffer/drain(into:)`), so nothing waits in memory; for a body in memory, at once.
    fileprivate static func drain(_ body: HTTPBody, into sink: @escaping @Sendable (Data) throws -> Void) async throws
        -> Int64
    {
        if let buffer = body.buffer { return try await buffer.drain(into: sink) }
        var count: Int64 = 0
        for try await chunk in body {
            try sink(chunk)
            count += Int64(chunk.count)
        }
        return count
    }
}

/// Thrown by a download's writing when the body grows past the call's maximum size.
private struct DownloadSizeExceeded: Error {}
