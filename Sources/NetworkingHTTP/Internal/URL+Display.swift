import Foundation

extension URL {
    /// The URL without user, password, query and fragment: safe to print in logs and errors.
    package var displayString: String {
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: true) else { return "<invalid URL>" }
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        return components.string ?? "<invalid URL>"
    }
}
