import Foundation
import NetworkingCore

extension FixtureTransport {
    /// A transport reading fixtures from the folder `name` that `bundle` ships: `Bundle.module` in a SwiftPM target
    /// that declares `resources: [.copy("Fixtures")]`, `Bundle.main` in an Xcode app with a folder reference.
    ///
    /// ```swift
    /// let transport = FixtureTransport(folder: "Fixtures", in: .main, basePath: "/v1")
    /// ```
    ///
    /// A bundle without that folder gives no optional to fall back on: every request fails with a ``FixtureError``
    /// saying that the folder does not exist and where it was looked for, so an app that asked for fixtures never
    /// reaches the network instead (`Bundle.main` in a SwiftPM target, whose resources are in `Bundle.module`, is
    /// the usual mistake).
    ///
    /// - Parameters:
    ///   - name: The folder's name among the bundle's resources, such as `Fixtures`.
    ///   - bundle: The bundle that ships it.
    ///   - basePath: A leading path to remove from request paths, usually the base URL's path; `/` for none.
    ///   - clock: The clock manifest delays wait on.
    public convenience init(
        folder name: String, in bundle: Bundle, basePath: String = "/", clock: any NetworkClock = SystemClock()
    ) {
        let directory =
            bundle.url(forResource: name, withExtension: nil)
            ?? (bundle.resourceURL ?? bundle.bundleURL).appendingPathComponent(name, isDirectory: true)
        self.init(directory: directory, basePath: basePath, clock: clock)
    }

    /// The reason of a miss in a folder that does not exist at all, which says so rather than name one file.
    var missingFolderReason: String? {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue {
            return nil
        }
        return "the fixture folder \(directory.path) does not exist (a bundle's folder: is it among the target's "
            + "resources, and read from the bundle that holds them?)"
    }
}
