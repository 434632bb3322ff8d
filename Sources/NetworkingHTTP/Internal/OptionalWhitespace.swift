extension StringProtocol where SubSequence == Substring {
    /// The text without leading and trailing spaces and tabs: the optional whitespace (OWS, RFC 9110 §5.6.3) around
    /// a field value or a list member, as octets (``FieldSyntax/trimmed(_:)``). Cheaper than Foundation's
    /// `trimmingCharacters(in:)`, which the hot paths (every response head, every buffered body's length) cannot
    /// afford on Linux, and exact: Foundation's `.whitespaces` would also trim Unicode spaces, which are not OWS.
    package var trimmingSpacesAndTabs: Substring {
        FieldSyntax.trimmed(self)
    }
}
