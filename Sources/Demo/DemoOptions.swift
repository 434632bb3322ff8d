import Foundation

/// The demo's command line: `Demo [--base-url URL [--record DIR]] [--replay DIR] [--no-color] [--help]`.
struct DemoOptions: Equatable {
    /// Where the calls go.
    var backend: Backend = .bundledFixtures
    /// `false` when `--no-color` was given.
    var colors = true
    /// `true` when `--help` was given.
    var showHelp = false

    /// The usage text.
    static let usage = """
        Usage: Demo [--base-url URL [--record DIR]] [--replay DIR] [--no-color]

        Runs a few calls of a countries API client and shows the client's behaviors at work:
        logging (redacted), retry, authorization and the activity counter.

          (no option)      use the bundled fixtures: no server, no network
          --base-url URL   run the same calls against a live server with the same paths
                           (/region/{name}, /alpha/{code}, /name/{name}), such as https://restcountries.com/v3.1
          --record DIR     with --base-url: record every exchange into the folder DIR (make record)
          --replay DIR     replay the exchanges recorded in DIR: no server, no network
          --no-color       never colour the output (colour is used only when stdout is a terminal)
          --help           show this help
        """

    /// A command-line mistake, with the message to show.
    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    /// Parses the arguments after the program name.
    ///
    /// - Parameter arguments: The arguments, such as `["--base-url", "https://example.com"]`.
    static func parse(_ arguments: [String]) throws(UsageError) -> DemoOptions {
        var options = DemoOptions()
        var remaining = arguments[...]
        var baseURL: URL?
        var record: URL?
        var replay: URL?
        func folder(_ flag: String) throws(UsageError) -> URL {
            guard let value = remaining.popFirst(), !value.isEmpty else {
                throw UsageError(description: "\(flag) needs a folder")
            }
            return URL(fileURLWithPath: value, isDirectory: true)
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--help", "-h":
                options.showHelp = true
            case "--no-color":
                options.colors = false
            case "--base-url":
                guard let value = remaining.popFirst() else { throw UsageError(description: "--base-url needs a URL") }
                baseURL = try liveURL(value)
            case let flag where flag.hasPrefix("--base-url="):
                baseURL = try liveURL(String(flag.dropFirst("--base-url=".count)))
            case "--record":
                record = try folder(argument)
            case "--replay":
                replay = try folder(argument)
            default:
                throw UsageError(description: "unknown argument \"\(argument)\"")
            }
        }
        switch (baseURL, record, replay) {
        case (let baseURL?, nil, nil): options.backend = .live(baseURL: baseURL)
        case (let baseURL?, let directory?, nil): options.backend = .recording(baseURL: baseURL, directory: directory)
        case (nil, nil, let directory?): options.backend = .replaying(directory: directory)
        case (nil, nil, nil): break
        case (nil, _?, _): throw UsageError(description: "--record needs --base-url: the server to record")
        case (_, _, _?): throw UsageError(description: "--replay runs offline: leave out --base-url and --record")
        }
        return options
    }

    private static func liveURL(_ text: String) throws(UsageError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host?.isEmpty == false
        else {
            throw UsageError(description: "--base-url needs an absolute http or https URL, got \"\(text)\"")
        }
        return url
    }
}
