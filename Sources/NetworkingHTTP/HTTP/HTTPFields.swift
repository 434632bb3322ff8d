/// The header fields of an ``HTTPRequest`` or ``HTTPResponse``: ordered, looked up without regard to letter case,
/// sent with the case they were written in, and allowed to repeat.
///
/// ```swift
/// var fields: HTTPFields = ["Accept": "application/json"]
/// fields[.authorization] = "Bearer t0ken"          // replaces every Authorization field
/// fields.append(HTTPField(name: "X-Trace", value: "a"))
/// fields.append(HTTPField(name: "x-trace", value: "b"))
/// fields[values: "X-TRACE"]                         // ["a", "b"]
/// fields[sensitive: "X-API-Key"] = key              // never logged, never sent to another origin
/// ```
///
/// **Every write is checked.** A name must be an RFC 9110 token; a value must not contain CR, LF, NUL or another
/// control character except horizontal tab. A write that breaks a rule changes nothing and is recorded in
/// ``invalidReason``; the client then refuses the call with `NetworkError` of kind `invalidRequest`, before any
/// I/O, whoever wrote it: the request, a built-in behavior or your own. A bad value can never be dropped silently
/// or split a header.
///
/// Reading a name that occurs several times joins its values with `", "` (`"; "` for `Cookie`), as RFC 9110
/// §5.3 allows; `subscript(values:)` gives them one by one.
public struct HTTPFields: Sendable, Hashable, RandomAccessCollection, RangeReplaceableCollection,
    ExpressibleByDictionaryLiteral, CustomStringConvertible
{
    private var fields: [HTTPField] = []
    /// What most fields never have (a refusal, declared sensitive names), in one box that is `nil` until they do:
    /// fields are copied with every request, and this keeps a copy at two references.
    private var rare: Rare?

    /// The box behind ``rare``, replaced on each (rare) write.
    private final class Rare: Sendable {
        let invalidReason: String?
        let declaredSensitiveNames: Set<String>

        init(invalidReason: String?, declaredSensitiveNames: Set<String>) {
            self.invalidReason = invalidReason
            self.declaredSensitiveNames = declaredSensitiveNames
        }
    }

    /// Why a write was refused: the first refusal, kept until the fields are rebuilt.
    public private(set) var invalidReason: String? {
        get { rare?.invalidReason }
        set { rare = Rare(invalidReason: newValue, declaredSensitiveNames: declaredSensitiveNames) }
    }
    /// Lower-cased names that are sensitive in these fields whoever writes them (the client's
    /// `NetworkClient/Configuration/sensitiveHeaderNames`): every field of such a name, present or written later,
    /// is marked sensitive.
    package var declaredSensitiveNames: Set<String> {
        get { rare?.declaredSensitiveNames ?? [] }
        set {
            rare = Rare(invalidReason: invalidReason, declaredSensitiveNames: newValue)
            markSensitive(newValue)
        }
    }

    /// Creates empty fields.
    public init() {}

    /// Creates fields from `(name, value)` pairs, in order: `["Accept": "application/json"]`.
    ///
    /// - Parameter elements: The fields.
    public init(dictionaryLiteral elements: (HTTPField.Name, String)...) {
        for (name, value) in elements { append(HTTPField(name: name, value: value)) }
    }

    /// Creates fields from a dictionary, sorted by name so the order never depends on the dictionary's.
    ///
    /// - Parameter dictionary: Names and values.
    public init(_ dictionary: [String: String]) {
        for (name, value) in dictionary.sorted(by: { $0.key < $1.key }) {
            append(HTTPField(name: HTTPField.Name(name), value: value))
        }
    }

    // MARK: Reading

    /// The value of `name`: every field of that name joined with `", "` (`"; "` for `Cookie`); `nil` when absent.
    /// Setting a value replaces every field of that name with one field, at the place of the first, keeping it
    /// sensitive if it was; setting `nil` removes them all.
    public subscript(name: HTTPField.Name) -> String? {
        get {
            guard var index = firstIndex(named: name) else { return nil }
            var found = fields[index].value
            while let next = firstIndex(named: name, from: index + 1) {
                found += (name.canonicalName == "cookie" ? "; " : ", ") + fields[next].value
                index = next
            }
            return found
        }
        set { set(newValue, for: name, sensitive: nil) }
    }

    /// The value of `name`, as the plain subscript reads it; setting it marks the field sensitive: its value is never
    /// logged or shown in an error, and it is removed when a redirect leaves the request's origin.
    public subscript(sensitive name: HTTPField.Name) -> String? {
        get { self[name] }
        set { set(newValue, for: name, sensitive: true) }
    }

    /// The values of every field named `name`, in order. Setting replaces them all.
    public subscript(values name: HTTPField.Name) -> [String] {
        get {
            var values: [String] = []
            var next = firstIndex(named: name)
            while let index = next {
                values.append(fields[index].value)
                next = firstIndex(named: name, from: index + 1)
            }
            return values
        }
        set {
            let sensitive = fields.contains { $0.name == name && $0.isSensitive } ? true : nil
            // Every value checked first: a refused one changes nothing (its reason is recorded).
            var replacements: [HTTPField] = []
            for value in newValue {
                var field = HTTPField(name: name, value: value, isSensitive: sensitive)
                guard admit(&field) else { return }
                replacements.append(field)
            }
            fields.removeAll { $0.name == name }
            fields.append(contentsOf: replacements)
        }
    }

    /// Whether a field named `name` exists.
    ///
    /// - Parameter name: The name, in any case.
    /// - Returns: `true` when at least one field has that name.
    public func contains(_ name: HTTPField.Name) -> Bool {
        firstIndex(named: name) != nil
    }

    /// The position of the first field named `name` at or after `start`; `nil` when there is none.
    ///
    /// Reads the names in place, with no copy of a field: every head is looked up several times (its length, its
    /// codings, its type), and a copy of each field it passes (three strings) cost more than the comparison.
    package func firstIndex(named name: HTTPField.Name, from start: Int = 0) -> Int? {
        fields.withUnsafeBufferPointer { buffer in
            var index = start
            while index < buffer.count {
                if buffer[index].name == name { return index }
                index += 1
            }
            return nil
        }
    }

    /// Whether a field named `name` exists and is sensitive.
    ///
    /// - Parameter name: The name, in any case.
    /// - Returns: `true` when a field of that name is sensitive.
    public func isSensitive(_ name: HTTPField.Name) -> Bool {
        fields.contains { $0.name == name && $0.isSensitive }
    }

    // MARK: Writing

    /// Marks every field whose lower-cased name is in `names` sensitive.
    private mutating func markSensitive(_ names: Set<String>) {
        guard !names.isEmpty else { return }
        for index in fields.indices where names.contains(fields[index].name.canonicalName) {
            fields[index].isSensitive = true
        }
    }

    private mutating func set(_ value: String?, for name: HTTPField.Name, sensitive: Bool?) {
        guard let value else {
            fields.removeAll { $0.name == name }
            return
        }
        var field = HTTPField(name: name, value: value, isSensitive: sensitive)
        guard admit(&field) else { return }
        guard let first = firstIndex(named: name) else {
            makeRoom()
            fields.append(field)
            return
        }
        var replacement = field
        replacement.isSensitive = field.isSensitive || fields[first].isSensitive
        fields[first] = replacement
        var index = first + 1
        while index < fields.endIndex {
            if fields[index].name == name { fields.remove(at: index) } else { index += 1 }
        }
    }

    /// Checks `field`; records the first refusal. Returns whether it may be written, marked sensitive if its
    /// name is declared so.
    private mutating func admit(_ field: inout HTTPField) -> Bool {
        if let rare, !rare.declaredSensitiveNames.isEmpty,
            rare.declaredSensitiveNames.contains(field.name.canonicalName)
        {
            field.isSensitive = true
        }
        if !field.name.isValid {
            if invalidReason == nil {
                invalidReason =
                    "the header name \"\(DisplayText.escapingControlCharacters(field.name.rawName))\" is not a valid "
                    + "HTTP token"
            }
            return false
        }
        if !HTTPToken.isValidFieldValue(field.value) {
            if invalidReason == nil {
                invalidReason =
                    "the value of header \(field.name.rawName) contains CR, LF, NUL or another control character"
            }
            return false
        }
        return true
    }

    // MARK: Collection

    /// The position of the first field.
    public var startIndex: Int { fields.startIndex }
    /// The position after the last field.
    public var endIndex: Int { fields.endIndex }

    /// The field at `position`.
    public subscript(position: Int) -> HTTPField { fields[position] }

    /// Replaces the fields in `subrange` with `newElements`, checking each; a refused field is left out and
    /// recorded in ``invalidReason``.
    ///
    /// - Parameters:
    ///   - subrange: The positions to replace.
    ///   - newElements: The fields to put there.
    public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C)
    where C.Element == HTTPField {
        var admitted: [HTTPField] = []
        admitted.reserveCapacity(newElements.count)
        for var field in newElements where admit(&field) { admitted.append(field) }
        fields.replaceSubrange(subrange, with: admitted)
    }

    /// Appends `newElement` after checking it; a refused field is left out and recorded in ``invalidReason``.
    ///
    /// - Parameter newElement: The field.
    public mutating func append(_ newElement: HTTPField) {
        // The usual case (a valid field, no declared names, no refusal yet) without a copy of the field to admit.
        if rare == nil, newElement.name.isValid, HTTPToken.isValidFieldValue(newElement.value) {
            makeRoom()
            fields.append(newElement)
            return
        }
        var field = newElement
        if admit(&field) {
            makeRoom()
            fields.append(field)
        }
    }

    /// Before a field is added to full storage: room for a few at once. Fields are added one at a time (behaviors
    /// set a header each), and the array would grow from one to two to four.
    private mutating func makeRoom() {
        if fields.count == fields.capacity { fields.reserveCapacity(Swift.max(4, 2 * fields.count)) }
    }

    /// Fields are equal when they hold the same fields in the same order and the same refusal.
    public static func == (lhs: HTTPFields, rhs: HTTPFields) -> Bool {
        lhs.fields == rhs.fields && lhs.invalidReason == rhs.invalidReason
    }

    /// Hashes the fields and the refusal.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(fields)
        hasher.combine(invalidReason)
    }

    /// Removes every field for which `shouldBeRemoved` is true, keeping the refusal and the declared names.
    ///
    /// - Parameter shouldBeRemoved: Says which fields go.
    public mutating func removeAll(where shouldBeRemoved: (HTTPField) throws -> Bool) rethrows {
        try fields.removeAll(where: shouldBeRemoved)
    }

    /// Reserves room for `capacity` fields.
    ///
    /// - Parameter capacity: The number of fields.
    public mutating func reserveCapacity(_ capacity: Int) {
        fields.reserveCapacity(capacity)
    }

    /// `Name: value` lines, sensitive values redacted.
    public var description: String {
        fields.map(\.description).joined(separator: "\n")
    }
}
