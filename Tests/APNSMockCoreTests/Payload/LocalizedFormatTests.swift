import APNSMockCore
import Testing

/// `LocalizedFormat.render`: formats as iOS fills them with `loc-args` ("The key string can be
/// formatted with %@ and %n$@ specifiers", Apple's payload key reference, seed 001).
@Suite("LocalizedFormat")
struct LocalizedFormatTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let format: String
        let arguments: [String]
        let text: String
        let placeholders: Int
        var testDescription: String { "\(format) \(arguments)" }
        init(_ format: String, _ arguments: [String], _ text: String, _ placeholders: Int) {
            self.format = format
            self.arguments = arguments
            self.text = text
            self.placeholders = placeholders
        }
    }

    static let cases: [Case] = [
        Case("Welcome back", [], "Welcome back", 0),
        Case("Welcome back", ["extra"], "Welcome back", 0),
        Case("%@ and %@ have invited you", ["Jenna", "Frank"], "Jenna and Frank have invited you", 2),
        Case("%2$@ replied to %1$@", ["Jenna", "Frank"], "Frank replied to Jenna", 2),
        Case("%1$@, %1$@!", ["Hey"], "Hey, Hey!", 1),
        Case("%3$@ only", ["a", "b", "c"], "c only", 3),
        Case("%@ %% off", ["20"], "20 % off", 1),
        Case("100%%", [], "100%", 0),
        Case("%%@ is literal", ["x"], "%@ is literal", 0),
        Case("%d new messages", ["5"], "5 new messages", 1),
        Case("%i %u %f %s", ["1", "2", "3.5", "four"], "1 2 3.5 four", 4),
        Case("%ld and %lld", ["7", "8"], "7 and 8", 2),
        Case("%2$d of %1$ld", ["10", "3"], "3 of 10", 2),
        Case("%.2f km", ["3.14159"], "3.14159 km", 1),
        Case("%05d", ["42"], "42", 1),
        Case("%@ and %@", ["Jenna"], "Jenna and ", 2),
        Case("%2$@", [], "", 2),
        // As in printf, "% o" is a conversion (octal, space flag): a literal percent sign needs %%.
        Case("50% off", ["8"], "508ff", 1),
        Case("50%% off", [], "50% off", 0),
        Case("trailing %", [], "trailing %", 0),
        Case("%y is no conversion", [], "%y is no conversion", 0),
        Case("%0$@ has no position 0", ["a"], "%0$@ has no position 0", 0),
        Case("café %@ 🙂", ["crème"], "café crème 🙂", 1),
        Case("", [], "", 0),
    ]

    @Test("render", arguments: cases)
    func render(_ row: Case) {
        let result = LocalizedFormat.render(row.format, arguments: row.arguments)
        #expect(result.text == row.text)
        #expect(result.placeholders == row.placeholders)
    }
}
