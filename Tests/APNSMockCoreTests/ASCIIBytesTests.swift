import Testing

@testable import APNSMockCore

/// ASCII case folding as tokens, ids and header names are compared: letters only, any mix of
/// native strings and substrings.
@Suite struct ASCIIBytesTests {
    @Test(arguments: [
        ("abCD09", "ABcd09", true), ("ab", "ab", true), ("", "", true), ("ab", "abc", false),
        ("a@", "A`", false), ("[", "{", false), ("é", "É", false), ("7F4C", "7f4c", true),
    ])
    func equalIgnoringCase(_ lhs: String, _ rhs: String, _ equal: Bool) {
        #expect(ASCIIBytes.equalIgnoringCase(lhs, rhs) == equal)
        // Substrings, and a string with a substring, agree.
        #expect(ASCIIBytes.equalIgnoringCase(("x" + lhs).dropFirst(), rhs[...]) == equal)
        #expect(ASCIIBytes.equalIgnoringCase(lhs, ("x" + rhs).dropFirst()) == equal)
    }

    /// `lowercased` folds what `equalIgnoringCase` folds, and nothing else: equal strings get
    /// one key.
    @Test(arguments: [("abCD09", "abcd09"), ("", ""), ("É-Z@[", "É-z@["), ("7f4c", "7f4c")])
    func lowercased(_ string: String, _ expected: String) {
        #expect(ASCIIBytes.lowercased(string) == expected)
        #expect(ASCIIBytes.equalIgnoringCase(ASCIIBytes.lowercased(string), string))
    }
}
