import Foundation
import NetworkingHTTP
import NetworkingCore

extension HTTPCacheBehavior {
    /// The most variants kept per URL (RFC 9111 §4.1); the least recent goes first.
    static let maximumVariants = 8

    /// The stored variant that `request` selects (RFC 9111 §4.1): the most recent whose `Vary` headers match.
    static func variant(of stored: HTTPCacheEntry, matching request: HTTPFields) -> HTTPCacheEntry? {
        variants(of: stored).first { CacheStorability.matches($0, request: request) }
    }

    /// Every stored variant, the most recent first, each without variants of its own.
    static func variants(of stored: HTTPCacheEntry) -> [HTTPCacheEntry] {
        var primary = stored
        primary.otherVariants = []
        return [primary] + stored.otherVariants
    }

    /// Replaces the variant `request` selects with `entry` (or removes it when `entry` is `nil`); the other
    /// variants stay. A new response without `Vary` matches every request, so it replaces them all.
    func replaceVariant(for request: HTTPRequest, with entry: HTTPCacheEntry?, call: Call) async {
        guard let stored = await store.entry(forKey: call.key) else {
            if let entry { await store.setEntry(entry, forKey: call.key) }
            return
        }
        let all = Self.variants(of: stored)
        var others = all.filter { !CacheStorability.matches($0, request: request.headerFields) }
        if let entry, CacheStorability.varyNames(of: entry.headerFields)?.isEmpty ?? true { others = [] }
        guard var first = entry ?? others.first else {
            await store.removeEntry(forKey: call.key)
            return
        }
        if entry == nil {
            guard others.count != all.count else { return }
            others.removeFirst()
        }
        first.otherVariants = Array(others.prefix(Self.maximumVariants - 1))
        await store.setEntry(first, forKey: call.key)
    }
}
