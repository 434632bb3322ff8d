import Foundation
import Testing

@testable import NetworkingHTTP

/// The octet toolkit every parser of network bytes cuts and compares with (RFC 9110 §5.6): only the ASCII bytes
/// `;`, `,`, `=` cut, whatever Unicode takes for them; tokens compare by ASCII case only.
@Suite struct FieldSyntaxTests {
    /// U+037E GREEK QUESTION MARK: Swift's `Character` takes it for `;` (canonical equivalence).
    static let greekQuestionMark = "\u{37E}"
    /// U+212A KELVIN SIGN: `==` takes it for `K`, `lowercased()` makes it `k`.
    static let kelvin = "\u{212A}"
    /// U+FF1B FULLWIDTH SEMICOLON: looks like `;`, is not one, for Swift or a peer.
    static let fullwidthSemicolon = "\u{FF1B}"

    struct SplitRow: Sendable, CustomTestStringConvertible {
        let rule: String
        let text: String
        let separator: Character
        var quoted = false
        let pieces: [String]
        var testDescription: String { "RFC 9110 §5.6: \(rule)" }
    }

    static let splitRows: [SplitRow] = [
        SplitRow(
            rule: "U+037E does not cut", text: "a\(greekQuestionMark)b;c", separator: ";", pieces: ["a\u{37E}b", "c"]),
        SplitRow(
            rule: "a fullwidth ; does not cut", text: "a\(fullwidthSemicolon)b", separator: ";", pieces: ["a\u{FF1B}b"]),
        SplitRow(
            rule: "a ; followed by a combining mark cuts", text: "a;\u{301}b", separator: ";",
            pieces: ["a", "\u{301}b"]),
        SplitRow(
            rule: "a , followed by a combining mark cuts", text: "1,\u{301}2", separator: ",",
            pieces: ["1", "\u{301}2"]),
        SplitRow(rule: "CRLF is two bytes", text: "a\r\nb", separator: "\n", pieces: ["a\r", "b"]),
        SplitRow(
            rule: "a quoted string is not cut (§5.6.4)", text: #"a="x,y", b"#, separator: ",", quoted: true,
            pieces: [#"a="x,y""#, " b"]),
        SplitRow(
            rule: "an escaped quote stays inside (§5.6.4)", text: #"a="x\",y", b"#, separator: ",", quoted: true,
            pieces: [#"a="x\",y""#, " b"]),
    ]

    @Test(arguments: splitRows) func onlyTheDelimiterByteCuts(row: SplitRow) {
        let separator = row.separator.asciiValue ?? 0
        let pieces = FieldSyntax.split(row.text, separator: separator, quoted: row.quoted)
        #expect(pieces.map { Array($0.utf8) } == row.pieces.map { Array($0.utf8) })
    }

    @Test func listMembersAreTrimmedOfOWSOnlyAndEmptyOnesDropped() {
        let members = FieldSyntax.listMembers([" a ,, \u{A0}b\u{A0}", "\t\"c, d\"\t"])
        #expect(members.map { Array($0.utf8) } == ["a", "\u{A0}b\u{A0}", "\"c, d\""].map { Array($0.utf8) })
        #expect(FieldSyntax.listMembers(["\"a,b\""], quoted: false) == ["\"a", "b\""])
    }

    struct CaseRow: Sendable, CustomTestStringConvertible {
        let text: String
        let lowercase: String
        let equal: Bool
        var testDescription: String { "\(text.debugDescription) vs \(lowercase)" }
    }

    static let caseRows: [CaseRow] = [
        CaseRow(text: "MAX-AGE", lowercase: "max-age", equal: true),
        CaseRow(text: "\(kelvin)eep-alive", lowercase: "keep-alive", equal: false),
        CaseRow(text: "\u{130}", lowercase: "i", equal: false),
        CaseRow(text: "a\(greekQuestionMark)", lowercase: "a;", equal: false),
        CaseRow(text: "a\u{1FEF}", lowercase: "a`", equal: false),
        CaseRow(text: "a\(fullwidthSemicolon)", lowercase: "a;", equal: false),
    ]

    @Test(arguments: caseRows) func tokensCompareByASCIICaseOnly(row: CaseRow) {
        #expect(FieldSyntax.equalsIgnoringCase(row.text, row.lowercase) == row.equal)
        #expect((FieldSyntax.token(row.text) == row.lowercase) == row.equal)
        #expect(FieldSyntax.hasPrefixIgnoringCase(row.text + "-x", row.lowercase) == row.equal)
    }

    @Test func aTokenIsASCIITcharOnly() {
        #expect(FieldSyntax.token("No-Store") == "no-store")
        #expect(FieldSyntax.token("") == nil)
        #expect(FieldSyntax.token("a b") == nil)
        #expect(FieldSyntax.token(Self.kelvin) == nil)
        #expect(FieldSyntax.token("é") == nil)
    }

    @Test func parametersAreCutAtTheByteOutsideQuotes() {
        let (value, parameters) = FieldSyntax.parameters(
            #"Text/HTML ; Charset="a;b" ;q ; x\#(Self.greekQuestionMark)y=1"#)
        #expect(value == "Text/HTML")
        #expect(parameters.map { $0.name } == ["charset", "q"])
        #expect(parameters.first?.value == "a;b")
        #expect(parameters.last.map { $0.value == nil } == true)
        #expect(FieldSyntax.isMediaType("TEXT/event-stream; charset=utf-8", "text/event-stream"))
        #expect(
            !FieldSyntax.isMediaType("text/event-stream\(Self.greekQuestionMark) charset=utf-8", "text/event-stream"))
    }

    @Test func aQuotedStringLosesItsQuotesAndEscapes() {
        #expect(FieldSyntax.unquoted(#""a\"b\\c""#) == #"a"b\c"#)
        #expect(FieldSyntax.unquoted("plain") == "plain")
        #expect(FieldSyntax.unquoted("\"") == "\"")
    }

    @Test func trimmingRemovesSpacesAndTabsNotUnicodeSpaces() {
        #expect(FieldSyntax.trimmed(" \t a \t") == "a")
        #expect(Array(FieldSyntax.trimmed("\u{A0}a\u{3000}").utf8) == Array("\u{A0}a\u{3000}".utf8))
        #expect(FieldSyntax.trimmed("  ").isEmpty)
    }

    @Test func equalityIsOctetEquality() {
        #expect(FieldSyntax.equals("a;", "a;"))
        #expect(!FieldSyntax.equals("a\(Self.greekQuestionMark)", "a;"))
        #expect(!FieldSyntax.equals(Self.kelvin, "K"))
        #expect(FieldSyntax.containsIgnoringCase("application/VND.API+JSON", "+json"))
        #expect(!FieldSyntax.containsIgnoringCase("application/x", "+json"))
    }
}
