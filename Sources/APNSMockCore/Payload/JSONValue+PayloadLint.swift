/// Readers the payload analyzer uses on parsed values (named `lint…` to stay clear of anything
/// `JSONValue` may grow elsewhere).
extension JSONValue {
    /// The text of a string.
    var lintString: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The value of a number written as an integer (`3`, `-1`; not `3.0` or `3e0`) that fits `Int`.
    var lintInteger: Int? {
        if case .number(_, let text) = self { return Int(text) }
        return nil
    }

    /// The value of a finite number.
    var lintNumber: Double? {
        if case .number(let value, _) = self, value.isFinite { return value }
        return nil
    }

    /// Whether this is an object.
    var lintIsObject: Bool {
        if case .object = self { return true }
        return false
    }

    /// The value for a message: `the string "3"`, `the number 1.5`, `an array`…
    var lintDescription: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return "the boolean \(value)"
        case .number(_, let text): return "the number \(text)"
        case .string(let text):
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            return "the string \"\(shown)\""
        case .array: return "an array"
        case .object: return "a dictionary"
        }
    }
}
