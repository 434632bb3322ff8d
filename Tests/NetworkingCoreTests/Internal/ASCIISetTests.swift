import NetworkingHTTP
import Testing

/// The byte sets of the request checks are written as masks; each must be exactly the characters it stands for.
@Suite struct ASCIISetTests {
    @Test(arguments: [
        ("token", ASCIISet.token, ASCIISet.tokenCharacters),
        ("authority", ASCIISet.authority, ASCIISet.authorityCharacters),
        ("target", ASCIISet.target, ASCIISet.targetCharacters),
        ("relativePath", ASCIISet.relativePath, ASCIISet.relativePathCharacters),
    ])
    func eachSetsMasksAreItsCharacters(name: String, set: ASCIISet, characters: String) {
        #expect(set == ASCIISet(characters), "\(name)")
        for byte in UInt8.min...UInt8.max {
            #expect(set.contains(byte) == characters.utf8.contains(byte), "\(name): byte \(byte)")
        }
    }

    @Test func noByteAbove127IsInAnySet() {
        let everything = ASCIISet(low: .max, high: .max)
        #expect(everything.contains(127))
        #expect(!everything.contains(128))
        #expect(!everything.contains(255))
        #expect(ASCIISet("é€ab") == ASCIISet("ab"))
    }
}
