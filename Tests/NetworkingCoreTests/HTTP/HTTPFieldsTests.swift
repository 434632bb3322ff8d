import Foundation
import Networking
import Testing
import NetworkingTestSupport

/// `HTTPFields` alone: lookup, case, repetition, checked writes, sensitivity.
@Suite struct HTTPFieldsTests {
    @Test func namesAreLookedUpWithoutCaseAndSentAsWritten() {
        var fields: HTTPFields = ["X-API-Key": "k"]
        #expect(fields["x-api-key"] == "k")
        #expect(fields["X-Api-Key"] == "k")
        #expect(fields.map(\.name.rawName) == ["X-API-Key"])
        fields["x-api-key"] = "k2"
        #expect(fields.map(\.name.rawName) == ["x-api-key"], "the last write's spelling is sent")
        #expect(fields.count == 1)
    }

    @Test func repeatedFieldsAreKeptInOrderAndJoinedWhenReadAsOne() {
        var fields = HTTPFields()
        fields.append(HTTPField(name: "Accept", value: "a"))
        fields.append(HTTPField(name: "X-Other", value: "o"))
        fields.append(HTTPField(name: "accept", value: "b"))
        #expect(fields[values: "ACCEPT"] == ["a", "b"])
        #expect(fields[.accept] == "a, b")
        #expect(fields.map(\.name.rawName) == ["Accept", "X-Other", "accept"])
    }

    @Test func cookiesAreJoinedWithSemicolons() {
        var fields = HTTPFields()
        fields.append(HTTPField(name: .cookie, value: "a=1"))
        fields.append(HTTPField(name: .cookie, value: "b=2"))
        #expect(fields[.cookie] == "a=1; b=2")
    }

    @Test func settingANameReplacesEveryFieldOfItAtTheFirstPlace() {
        var fields: HTTPFields = ["A": "1", "B": "2"]
        fields.append(HTTPField(name: "a", value: "3"))
        fields["A"] = "new"
        #expect(fields.map(\.description) == ["A: new", "B: 2"])
        fields["A"] = nil
        #expect(fields.map(\.description) == ["B: 2"])
        fields[values: "C"] = ["x", "y"]
        #expect(fields[values: "c"] == ["x", "y"])
    }

    @Test(arguments: ["a\r\nInjected: yes", "a\rb", "a\nb", "a\u{0}b", "\u{1B}[31m", "a\u{7F}"])
    func aValueWithAControlCharacterIsRefusedAndRecorded(value: String) {
        var fields: HTTPFields = ["Accept": "ok"]
        fields["X-Note"] = value
        #expect(fields["X-Note"] == nil, "the bad value was not written")
        #expect(fields.invalidReason == "the value of header X-Note contains CR, LF, NUL or another control character")
        #expect(fields["Accept"] == "ok")
    }

    @Test func horizontalTabAndNonASCIIValuesAreAllowed() {
        var fields = HTTPFields()
        fields["X-Name"] = "Zoë\tand 🚀"
        #expect(fields["X-Name"] == "Zoë\tand 🚀")
        #expect(fields.invalidReason == nil)
    }

    @Test(arguments: ["", "X Note", "X:Note", "X\r\nNote", "X\u{0}", "Ünicode", "(paren)"])
    func aNameThatIsNotATokenIsRefusedAndRecorded(name: String) {
        var fields = HTTPFields()
        fields[HTTPField.Name(name)] = "v"
        #expect(fields.isEmpty)
        #expect(fields.invalidReason?.hasPrefix("the header name \"") == true)
        #expect(fields.invalidReason?.hasSuffix("is not a valid HTTP token") == true)
        #expect(fields.invalidReason?.contains("\r") == false, "the reason itself is one line")
    }

    @Test func everyWayOfWritingIsChecked() {
        var appended = HTTPFields()
        appended.append(HTTPField(name: "X-A", value: "a\nb"))
        var inserted = HTTPFields()
        inserted.insert(HTTPField(name: "X-A", value: "a\nb"), at: 0)
        var literal: HTTPFields = ["X-A": "a\nb"]
        var fromDictionary = HTTPFields(["X-A": "a\nb"])
        var listed = HTTPFields()
        listed[values: "X-A"] = ["ok", "a\nb"]
        for fields in [appended, inserted, literal, fromDictionary, listed] {
            #expect(fields.invalidReason != nil)
            #expect(!fields.contains { $0.value.contains("\n") })
        }
        literal = [:]
        fromDictionary = [:]
        #expect(literal.invalidReason == nil && fromDictionary.invalidReason == nil)
    }

    @Test func aRefusedListOfValuesChangesNothing() {
        var fields: HTTPFields = ["X": "a", "Y": "b"]
        fields[values: "X"] = ["b", "bad\r\n"]
        #expect(fields[values: "X"] == ["a"])
        #expect(fields.map(\.name.rawName) == ["X", "Y"])
        #expect(fields.invalidReason?.contains("CR, LF") == true)
    }

    @Test func theFirstRefusalIsKept() {
        var fields = HTTPFields()
        fields["X-First"] = "a\rb"
        fields["Bad Name"] = "v"
        #expect(fields.invalidReason?.contains("X-First") == true)
    }

    /// A name read from the network's bytes (the transports' head parsers) is the same name as one written in code:
    /// kept as written, compared in lower case, checked as a token, in one pass over its bytes.
    @Test(arguments: [
        ("Content-Type", "content-type", true),
        ("etag", "etag", true),
        ("X-A-Rather-Long-Header-Name", "x-a-rather-long-header-name", true),
        ("X Bad", "x bad", false),
        ("", "", false),
        ("Ünicode", "Ünicode", false),
    ])
    func aNameIsKeptAsWrittenAndComparedInLowerCase(raw: String, canonical: String, isToken: Bool) {
        let written = HTTPField.Name(raw)
        let read = Array(raw.utf8).withUnsafeBytes { HTTPField.Name(utf8: $0) }
        for name in [written, read] {
            #expect(name.rawName == raw)
            #expect(name.canonicalName == canonical)
            #expect(name.isValid == isToken)
            #expect(name == HTTPField.Name(raw.uppercased()))
        }
        #expect(written == read && written.hashValue == read.hashValue)
    }

    @Test func namesOfOneLengthDifferingInOneLetterDiffer() {
        var fields: HTTPFields = ["X-Trace-A": "a", "X-Trace-B": "b"]
        #expect(fields["x-trace-b"] == "b")
        #expect(HTTPField.Name("X-Trace-A") != HTTPField.Name("X-Trace-B"))
        #expect(fields.firstIndex(named: "X-TRACE-B") == 1)
        #expect(fields.firstIndex(named: "X-Trace-A", from: 1) == nil)
        fields["X-Trace-C"] = nil
        #expect(fields.count == 2)
    }

    @Test func credentialNamesAreSensitiveByDefault() {
        let fields: HTTPFields = [
            "Authorization": "a", "proxy-authorization": "p", "Cookie": "c", "Set-Cookie": "s", "X-Other": "o",
        ]
        #expect(
            fields.filter(\.isSensitive).map(\.name.rawName) == [
                "Authorization", "proxy-authorization", "Cookie", "Set-Cookie",
            ])
    }

    @Test func aFieldWrittenAsSensitiveStaysSensitiveWhenRewritten() {
        var fields = HTTPFields()
        fields[sensitive: "X-API-Key"] = "k1"
        fields["x-api-key"] = "k2"
        #expect(fields.isSensitive("X-API-KEY"))
        #expect(fields.description == "x-api-key: <redacted>")
    }

    @Test func declaredNamesMakeEveryFieldOfThatNameSensitive() {
        var fields: HTTPFields = ["X-Session": "s1"]
        fields.declaredSensitiveNames = ["x-session", "x-later"]
        fields["X-Later"] = "l"
        #expect(fields.isSensitive("X-Session"))
        #expect(fields.isSensitive("X-Later"))
        var copy = fields
        copy.append(HTTPField(name: "x-session", value: "s2"))
        #expect(copy.filter(\.isSensitive).count == 3)
    }

    @Test func fieldsCompareByContent() {
        var a: HTTPFields = ["A": "1"]
        let b: HTTPFields = ["A": "1"]
        #expect(a == b)
        a["A"] = "2"
        #expect(a != b)
    }
}
