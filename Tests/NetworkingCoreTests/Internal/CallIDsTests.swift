import Foundation
import Networking
import Testing

/// Call ids: version-4 UUIDs from a per-process key and a counter, no system call per call.
@Suite struct CallIDsTests {
    @Test func idsAreVersionFourRFCVariantUUIDsAndNeverRepeat() {
        let ids = (0..<10_000).map { _ in CallIDs.next() }
        #expect(Set(ids).count == ids.count)
        for id in ids.prefix(100) {
            let text = id.uuidString
            let versionIndex = text.index(text.startIndex, offsetBy: 14)
            let variantIndex = text.index(text.startIndex, offsetBy: 19)
            #expect(text[versionIndex] == "4", "\(text)")
            #expect("89AB".contains(text[variantIndex]), "\(text)")
        }
    }

    @Test func consecutiveIdsShareNoVisiblePattern() {
        // A counter mixed by a bijection: neighbours differ in about half their bits, not in the last digit.
        let first = CallIDs.next().uuid
        let second = CallIDs.next().uuid
        let bytes = { (u: uuid_t) in withUnsafeBytes(of: u) { Array($0) } }
        let differing = zip(bytes(first), bytes(second)).reduce(0) { $0 + ($1.0 ^ $1.1).nonzeroBitCount }
        #expect(differing > 32, "\(differing) bits differ")
    }
}
