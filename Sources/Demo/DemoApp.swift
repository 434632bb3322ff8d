import Foundation

/// The demo app: a countries API client making real calls through `NetworkClient`, on bundled fixtures by default.
///
/// `make demo` runs it with no server and no network; `--base-url URL` runs the same calls against a live server.
@main
struct DemoApp {
    static func main() async {
        let options: DemoOptions
        do {
            options = try DemoOptions.parse(Array(CommandLine.arguments.dropFirst()))
        } catch {
            FileHandle.standardError.write(Data("Demo: \(error)\n\n\(DemoOptions.usage)\n".utf8))
            exit(2)
        }
        if options.showHelp {
            print(DemoOptions.usage)
            return
        }
        let style = options.colors ? TerminalStyle.automatic : .plain
        let console = DemoConsole(style: style) { line in print(line) }
        do {
            let report = try await DemoScenario.run(backend: options.backend, console: console)
            exit(report.failures == 0 ? 0 : 1)
        } catch {
            FileHandle.standardError.write(Data("Demo: the client could not be built: \(error)\n".utf8))
            exit(1)
        }
    }
}
