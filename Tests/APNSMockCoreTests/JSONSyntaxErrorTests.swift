import APNSMockCore
import Testing

/// Where JSON stops being JSON, as an admin error names it.
@Suite struct JSONSyntaxErrorTests {
    @Test(arguments: [
        (#"{"a": 1,}"#, "unexpected '}' at line 1, column 9"),
        ("{\n  \"a\": tru\n}", "unexpected 't' at line 2, column 8"),
        (#"{"a": 1"#, "unexpected the end of the text at line 1, column 8"),
        (#"{"a": 1} x"#, "unexpected 'x' at line 1, column 10"),
        (#"{"é": [1 2]}"#, "unexpected '2' at line 1, column 10"),
        ("", "unexpected the end of the text at line 1, column 1"),
    ])
    func locatesTheFirstByteThatIsNotJSON(_ text: String, _ description: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parsing(Array(text.utf8)) }
        do {
            _ = try JSONValue.parsing(Array(text.utf8))
        } catch {
            #expect(error.description == description)
        }
        #expect(JSONValue.parse(text) == nil)
    }

    @Test func validTextParses() throws {
        #expect(try JSONValue.parsing(Array(#" {"a": [1, true, null]} "#.utf8))["a"] != nil)
    }
}
