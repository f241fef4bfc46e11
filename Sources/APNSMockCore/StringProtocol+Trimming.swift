extension StringProtocol {
    /// The text without the white space (Unicode's, newlines included unless `newlines` is
    /// false) at either end: what Foundation's `trimmingCharacters(in:)` gives with
    /// `.whitespacesAndNewlines` or `.whitespaces`, without swift-corelibs-foundation, whose
    /// `CharacterSet` would link ICU's data into the binary.
    public func trimmingWhitespace(newlines: Bool = true) -> String {
        func isSpace(_ character: Character) -> Bool {
            character.isWhitespace && (newlines || !character.isNewline)
        }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
