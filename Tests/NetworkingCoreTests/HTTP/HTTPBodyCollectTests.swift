import Foundation
import Networking
import Testing

/// What `collect(upTo:)` hands back when a producer yields slices of a larger `Data`.
@Suite struct HTTPBodyCollectTests {
    @Test(arguments: [1, 2, 3])
    func aCollectedBodyStartsAtIndexZeroWhateverSlicesItCameIn(chunks: Int) async throws {
        let whole = Data((0..<30).map { UInt8($0) })
        let (body, continuation) = HTTPBody.makeStream()
        // Slices that start past their storage's first byte, as `data[10...]` does.
        for index in 0..<chunks { continuation.yield(whole[(10 + index * 5)..<(15 + index * 5)]) }
        continuation.finish()
        let data = try await body.collect(upTo: 1_000)
        #expect(data.startIndex == 0)
        #expect(data == whole[10..<(10 + chunks * 5)])
        #expect(data[0] == 10)
    }
}
