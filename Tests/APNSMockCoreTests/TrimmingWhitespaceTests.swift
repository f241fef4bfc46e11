import APNSMockCore
import Testing

/// `trimmingWhitespace` stands in for Foundation's `trimmingCharacters(in:)` (whose CharacterSet
/// would link ICU into the binary): the same ends trimmed, nothing inside touched.
@Suite struct TrimmingWhitespaceTests {
    @Test(arguments: [
        ("  a b  ", true, "a b"), ("\t\n-----BEGIN-----\r\n", true, "-----BEGIN-----"), ("", true, ""),
        (" \n\t ", true, ""), ("x", true, "x"), ("\u{00A0}1.5\u{2003}", true, "1.5"),
        ("\n a \n", false, "\n a \n"), ("\t a\t", false, "a"), (" \n ", false, "\n"),
    ])
    func trimsTheEndsOnly(_ text: String, _ newlines: Bool, _ expected: String) {
        #expect(text.trimmingWhitespace(newlines: newlines) == expected)
        #expect(text[...].trimmingWhitespace(newlines: newlines) == expected)
    }
}
