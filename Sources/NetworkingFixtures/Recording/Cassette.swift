import Foundation
import NetworkingHTTP
import NetworkingCore

/// One recorded answer: a manifest response plus what only the recorder reads (`_recording` in the manifest).
struct RecordedStep: Sendable, Equatable {
    var status = 200
    var headers: [String: String] = [:]
    /// The trailer fields sent after the body (scrubbed as headers are).
    var trailers: [String: String] = [:]
    var file: String?
    /// An inline JSON body of a hand-written entry, kept as it was.
    var inlineBody: Data?
    var delay: Duration?
    /// A digest of the (scrubbed) request body, when bodies take part in matching.
    var requestBody: String?
    /// The (scrubbed) request body's file, sent again by a drift check.
    var requestFile: String?
    /// The sizes of the chunks or events of a streamed answer.
    var chunks: [Int]?
    /// When each chunk arrived, in seconds after the head.
    var pacing: [Double]?
}

/// The recordings of one folder: manifest routes by key (`METHOD /path?query`), each a list of answers.
package struct Cassette: Sendable {
    var routes: [String: [RecordedStep]] = [:]
    /// Top-level comment keys of the manifest (`_about`...), kept when it is written again.
    var comments: [String: String] = [:]

    static let metadataKey = "_recording"

    /// Reads a manifest written by the recorder or by hand.
    package static func parse(_ data: Data) throws(FixtureTransport.Problem) -> Cassette {
        let manifest = try FixtureTransport.Manifest.parse(data)
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        let metadata = object[metadataKey] as? [String: Any] ?? [:]
        var cassette = Cassette()
        for (key, value) in object where key.hasPrefix("_") && key != metadataKey {
            if let text = value as? String { cassette.comments[key] = text }
        }
        for route in manifest.routes {
            let extras = metadata[route.key] as? [Any] ?? []
            cassette.routes[route.key] = route.steps.enumerated().map { index, spec in
                var step = RecordedStep(
                    status: spec.status, headers: spec.headers, trailers: spec.trailers, file: spec.file,
                    inlineBody: spec.body, delay: spec.delay)
                if index < extras.count, let extra = extras[index] as? [String: Any] {
                    step.requestBody = extra["requestBody"] as? String
                    step.requestFile = extra["requestFile"] as? String
                    // Read as a hand-edited file may have them: chunk sizes that could not sum without overflow
                    // and pacing that is not a time of day are dropped (the answer is then replayed whole).
                    let chunks = extra["chunks"] as? [Int]
                    step.chunks = chunks?.allSatisfy({ (0...Int(Int32.max)).contains($0) }) == true ? chunks : nil
                    let pacing = (extra["pacing"] as? [Any])?.compactMap { ($0 as? NSNumber)?.doubleValue }
                    step.pacing = pacing?.allSatisfy({ (0...86_400).contains($0) }) == true ? pacing : nil
                }
                return step
            }
        }
        return cassette
    }

    /// The manifest: sorted keys, pretty-printed, one trailing newline; the same cassette gives the same bytes.
    func manifestData() -> Data {
        var routesObject: [String: Any] = [:]
        var metadata: [String: Any] = [:]
        for (key, steps) in routes where !steps.isEmpty {
            let responses = steps.map(Self.response)
            routesObject[key] = responses.count == 1 ? responses[0] : ["sequence": responses]
            let extras = steps.map(Self.extra)
            if extras.contains(where: { !$0.isEmpty }) { metadata[key] = extras }
        }
        var object: [String: Any] = ["routes": routesObject]
        for (key, text) in comments { object[key] = text }
        if !metadata.isEmpty { object[Self.metadataKey] = metadata }
        return JSONText.pretty(object) ?? Data("{}\n".utf8)
    }

    private static func response(_ step: RecordedStep) -> [String: Any] {
        var response: [String: Any] = ["status": step.status]
        if !step.headers.isEmpty { response["headers"] = step.headers }
        if !step.trailers.isEmpty { response["trailers"] = step.trailers }
        if let file = step.file { response["file"] = file }
        if let inline = step.inlineBody,
            let value = try? JSONSerialization.jsonObject(
                with: inline, options: [.fragmentsAllowed])
        {
            response["body"] = value
        }
        if let delay = step.delay {
            response["delay"] = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
        }
        return response
    }

    private static func extra(_ step: RecordedStep) -> [String: Any] {
        var extra: [String: Any] = [:]
        if let digest = step.requestBody { extra["requestBody"] = digest }
        if let file = step.requestFile { extra["requestFile"] = file }
        if let chunks = step.chunks { extra["chunks"] = chunks }
        if let pacing = step.pacing { extra["pacing"] = pacing }
        return extra
    }

    /// Every file the cassette names.
    var files: Set<String> {
        Set(routes.values.joined().flatMap { [$0.file, $0.requestFile].compactMap { $0 } })
    }
}

/// JSON written the one way the recorder writes it: pretty-printed, sorted keys, unescaped slashes, a final newline.
enum JSONText {
    static func pretty(_ value: Any) -> Data? {
        guard
            var data = try? JSONSerialization.data(
                withJSONObject: value,
                options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        else { return nil }
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// The JSON value of `data`, or `nil` when it is not JSON.
    static func value(_ data: Data) -> Any? {
        try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    }
}
