/// One JSON object of a fault rule, its keys checked: reads its fields with messages that name
/// them by key path.
struct FaultFieldReader {
    /// The object's key path (`action.respond`); empty for the rule itself.
    let location: String
    private let members: [(key: String, value: JSONValue)]

    /// - Parameters:
    ///   - known: the fields the object may have; any other is an error, as is a repeated one.
    ///   - shape: what the object must be, for the message when it is not one (`an object such
    ///     as {"first": 3}`).
    init(_ value: JSONValue, at location: String, known: [String], shape: String) throws(FaultRuleError) {
        guard case .object(let members) = value else {
            throw FaultRuleError(location.isEmpty ? "a fault rule must be \(shape)" : "'\(location)' must be \(shape)")
        }
        self.location = location
        self.members = members
        var seen: Set<String> = []
        for member in members {
            guard known.contains(member.key) else {
                if known.isEmpty {
                    throw FaultRuleError(
                        "unknown field '\(path(member.key))'; '\(location)' takes no fields", code: .unknownField)
                }
                throw FaultRuleError(
                    "unknown field '\(path(member.key))'\(NameSuggestion.didYouMean(member.key, among: known)); known: \(known.joined(separator: ", "))",
                    code: .unknownField)
            }
            guard seen.insert(member.key).inserted else {
                throw FaultRuleError("'\(path(member.key))' is given more than once", code: .duplicateField)
            }
        }
    }

    /// The key path of field `key`.
    func path(_ key: String) -> String { location.isEmpty ? key : "\(location).\(key)" }

    /// The keys present, in document order.
    var keys: [String] { members.map(\.key) }

    /// The value of `key`, if present.
    subscript(key: String) -> JSONValue? { members.first { $0.key == key }?.value }

    /// The value of `key`, which must be present.
    func required(_ key: String) throws(FaultRuleError) -> JSONValue {
        guard let value = self[key] else { throw FaultRuleError("'\(path(key))' is missing", code: .missingField) }
        return value
    }

    /// The integer at `key` (`nil` when absent), which must lie in `range`.
    func integer(_ key: String, in range: ClosedRange<Int64>) throws(FaultRuleError) -> Int64? {
        guard let value = self[key] else { return nil }
        guard let integer = Self.integer(value), range.contains(integer) else {
            let bounds =
                range.upperBound == .max
                ? "of at least \(range.lowerBound)" : "from \(range.lowerBound) to \(range.upperBound)"
            throw FaultRuleError("'\(path(key))' must be an integer \(bounds)")
        }
        return integer
    }

    /// The non-empty string at `key` (`nil` when absent).
    func string(_ key: String) throws(FaultRuleError) -> String? {
        guard let value = self[key] else { return nil }
        guard case .string(let text) = value, !text.isEmpty else {
            throw FaultRuleError("'\(path(key))' must be a non-empty string")
        }
        return text
    }

    /// The boolean at `key` (`nil` when absent).
    func bool(_ key: String) throws(FaultRuleError) -> Bool? {
        guard let value = self[key] else { return nil }
        guard case .bool(let flag) = value else { throw FaultRuleError("'\(path(key))' must be true or false") }
        return flag
    }

    /// The duration at `key` in milliseconds (`nil` when absent): a string such as `500ms`,
    /// `5s` or `2m` (`DurationText`), rounded to the millisecond, within `range`.
    /// - Parameter rangeText: `range` as the message says it (`from 0ms to 1h`).
    func duration(_ key: String, in range: ClosedRange<Int64>, rangeText: String) throws(FaultRuleError) -> Int64? {
        guard let value = self[key] else { return nil }
        guard case .string(let text) = value, let seconds = DurationText.seconds(text),
            seconds * 1000 <= Double(range.upperBound) + 0.5,
            case let milliseconds = Int64((seconds * 1000).rounded()), range.contains(milliseconds)
        else {
            throw FaultRuleError("'\(path(key))' must be a duration \(rangeText), written like 500ms, 5s or 2m")
        }
        return milliseconds
    }

    /// The integer a JSON number holds: read from its text when it is written as one (exact
    /// beyond 2⁵³), else by value (`95.0` is 95, as JSON Schema's `integer` says).
    static func integer(_ value: JSONValue) -> Int64? {
        guard case .number(let number, let text) = value else { return nil }
        return Int64(text) ?? Int64(exactly: number)
    }

    /// The unsigned integer a JSON number holds, read like `integer(_:)`.
    static func unsignedInteger(_ value: JSONValue) -> UInt64? {
        guard case .number(let number, let text) = value else { return nil }
        return UInt64(text) ?? UInt64(exactly: number)
    }
}
