import Foundation
import NetworkingHTTP
import NetworkingCore

/// An ``HTTPCacheStore`` in a folder: entries survive restarts.
///
/// ```swift
/// let folder = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
///     .appendingPathComponent("http-cache")
/// let cache = HTTPCacheBehavior(store: DiskHTTPCacheStore(directory: folder))
/// ```
///
/// - **Files:** one per key, named by the SHA-256 of the key in hex with the extension `.httpcache`, written
///   atomically (to a temporary file, then renamed), so a reader never sees half an entry.
/// - **Format:** a magic number, a version, the length of a JSON head (the key, status, header fields, dates),
///   the head, the length of the body, the body. A file with another magic number or version, a length that
///   does not match, a head that does not decode or names another key is corrupt: it is deleted and read as a
///   miss. Nothing in a file can crash the store.
/// - **Limit:** after each write, when the folder's `.httpcache` files exceed ``maximumBytes``, the least recently
///   used files go first (a read refreshes a file's modification date). Listing the folder costs O(entries) per
///   write.
/// - **Errors:** a folder that cannot be created, read or written makes the store miss; it never throws.
public struct DiskHTTPCacheStore: HTTPCacheStore {
    /// The default limit, 50 MiB: a disk cache can afford more than memory, and stays small beside an app's data.
    public static let defaultMaximumBytes = 50 << 20
    /// The extension of entry files.
    public static let fileExtension = "httpcache"

    /// The folder the entries live in; created when first needed.
    public let directory: URL
    /// The most bytes the entry files may take together.
    public let maximumBytes: Int

    /// Creates a store in `directory` with the default limit of 50 MiB.
    ///
    /// - Parameter directory: The folder; created on the first write. Give each cache a folder of its own:
    ///   ``removeAll()`` deletes every `.httpcache` file in it.
    public init(directory: URL) {
        self.directory = directory
        self.maximumBytes = Self.defaultMaximumBytes
    }

    /// Creates a store in `directory` with a limit of your own.
    ///
    /// - Parameters:
    ///   - directory: The folder; created on the first write.
    ///   - maximumBytes: The most bytes the entry files may take together; at least 1.
    /// - Throws: `BehaviorSettingsError` when `maximumBytes` is below 1.
    public init(directory: URL, maximumBytes: Int) throws {
        try BehaviorSettingsError.require(maximumBytes, atLeast: 1, "maximumBytes", in: "DiskHTTPCacheStore")
        self.directory = directory
        self.maximumBytes = maximumBytes
    }

    /// The file that holds the entry for `key`.
    ///
    /// - Parameter key: The cache key.
    /// - Returns: The file's URL in ``directory``.
    public func fileURL(forKey key: String) -> URL {
        let hex = SHA256.digest(Data(key.utf8)).map { String(format: "%02x", $0) }.joined()
        return directory.appendingPathComponent("\(hex).\(Self.fileExtension)")
    }

    /// The entry for `key`; a corrupt file is deleted and read as `nil`.
    ///
    /// - Parameter key: The cache key.
    /// - Returns: The entry, or `nil`.
    public func entry(forKey key: String) -> HTTPCacheEntry? {
        let url = fileURL(forKey: key)
        guard let data = try? FileContents.read(url) else { return nil }
        guard let entry = DiskHTTPCacheFormat.decode(data, key: key) else {
            try? FileManager.default.removeItem(at: url)
            return nil
        }
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: url.path)
        return entry
    }

    /// Writes `entry` atomically, then trims the folder to the limit.
    ///
    /// - Parameters:
    ///   - entry: The entry.
    ///   - key: The cache key.
    public func setEntry(_ entry: HTTPCacheEntry, forKey key: String) {
        guard let data = DiskHTTPCacheFormat.encode(entry, key: key), data.count <= maximumBytes else {
            removeEntry(forKey: key)
            return
        }
        let manager = FileManager.default
        try? manager.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = fileURL(forKey: key)
        guard (try? data.write(to: url, options: .atomic)) != nil else { return }
        trim(keeping: url)
    }

    /// Deletes the file for `key`.
    ///
    /// - Parameter key: The cache key.
    public func removeEntry(forKey key: String) {
        try? FileManager.default.removeItem(at: fileURL(forKey: key))
    }

    /// Deletes every `.httpcache` file in the folder, and nothing else.
    public func removeAll() {
        for file in entryFiles() { try? FileManager.default.removeItem(at: file.url) }
    }

    /// Deletes the least recently used files until the rest fit the limit; `kept` goes last.
    private func trim(keeping kept: URL) {
        let files = entryFiles()
        var total = files.reduce(0) { $0 + $1.size }
        guard total > maximumBytes else { return }
        let oldestFirst = files.sorted { ($0.url == kept ? 1 : 0, $0.date) < ($1.url == kept ? 1 : 0, $1.date) }
        for file in oldestFirst where total > maximumBytes {
            try? FileManager.default.removeItem(at: file.url)
            total -= file.size
        }
    }

    private func entryFiles() -> [(url: URL, size: Int, date: Date)] {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        let urls =
            (try? FileManager.default.contentsOfDirectory(
                at: directory, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])) ?? []
        return urls.filter { $0.pathExtension == Self.fileExtension }.map { url in
            let values = try? url.resourceValues(forKeys: Set(keys))
            return (url, values?.fileSize ?? 0, values?.contentModificationDate ?? .distantPast)
        }
    }
}
