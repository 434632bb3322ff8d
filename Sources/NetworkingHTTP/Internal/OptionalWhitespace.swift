extension StringProtocol where SubSequence == Substring {
    /// The text without leading and trailing spaces and tabs: the optional whitespace (OWS, RFC 9110 §5.6.3) around
    /// a field value or a list member. Cheaper than Foundation's `trimmingCharacters(in:)`, which the hot paths
    /// (every response head, every buffered body's length) cannot afford on Linux.
    package var trimmingSpacesAndTabs: Substring {
        var scalars = self[...].unicodeScalars[...]
        while let first = scalars.first, first == " " || first == "\t" { scalars = scalars.dropFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars = scalars.dropLast() }
        return Substring(scalars)
    }
}
