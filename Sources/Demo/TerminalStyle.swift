import Foundation

/// ANSI colours when the output is a terminal, plain text otherwise (pipes, files, tests, `NO_COLOR`).
struct TerminalStyle: Sendable {
    /// Whether escape codes are written.
    let colors: Bool

    /// Plain text.
    static let plain = TerminalStyle(colors: false)

    /// Colours when standard output is a terminal and `NO_COLOR` is not set.
    static var automatic: TerminalStyle {
        TerminalStyle(colors: isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil)
    }

    func bold(_ text: String) -> String { paint(text, "1") }
    func dim(_ text: String) -> String { paint(text, "2") }
    func red(_ text: String) -> String { paint(text, "31") }
    func green(_ text: String) -> String { paint(text, "32") }
    func yellow(_ text: String) -> String { paint(text, "33") }
    func magenta(_ text: String) -> String { paint(text, "35") }
    func cyan(_ text: String) -> String { paint(text, "36") }

    private func paint(_ text: String, _ code: String) -> String {
        colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
