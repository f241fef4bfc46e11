import APNSMockCore

/// A JSON or YAML value as written, before it is read into a typed shape: admin request bodies,
/// the configuration file and (later) expectation files share one reader, so every one of them
/// names a bad field the same way (`setup.keys[0].environment must be …`).
///
/// JSON values keep their JSON type. A YAML plain (unquoted) scalar keeps its text
/// (`plain`): whether `2197`, `on` or `0123abcd` is a number, a flag or a string is decided by
/// the field that reads it, so a hex device token or an all-digit team id needs no quotes.
///
/// Not `indirect`: lists and objects already hold their elements out of line, and an `indirect`
/// case would allocate a box for every string and number too (a million-device bulk body reads
/// a few million values).
public enum SpecValue: Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    /// A YAML plain scalar other than null, read as the field's type.
    case plain(String)
    case array([SpecValue])
    /// Fields in the order written.
    case object([(key: String, value: SpecValue)])

    /// What the value is, for messages (`must be a string; got a list`).
    public var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer, .number: return "a number"
        case .string: return "a string"
        case .plain(let text): return "'\(text)'"
        case .array: return "a list"
        case .object: return "an object"
        }
    }

    // MARK: JSON

    /// Parses JSON text (any top-level value) with Core's reader (`JSONValue`), the one that
    /// reads payloads and provider tokens. An object's fields keep the order written; a key given
    /// twice keeps its last value, where it was last written.
    /// - Throws: `SpecError` with an empty path when `bytes` is not JSON, naming the line and
    ///   column where the text stops being JSON.
    public static func parse(json bytes: some Collection<UInt8>) throws(SpecError) -> SpecValue {
        do throws(JSONSyntaxError) {
            return SpecValue(json: try JSONValue.parsing(bytes))
        } catch {
            throw SpecError(path: "", problem: "is not valid JSON (\(error.description))", code: .unreadable)
        }
    }

    /// `value` as a `SpecValue`: a number written without a fraction or an exponent that fits
    /// 64 bits is an integer, any other a double.
    public init(json value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .string(let text): self = .string(text)
        case .number(let number, let text):
            if let integer = Int64(text) {
                self = .integer(integer)
            } else {
                self = .number(number)
            }
        case .array(let elements): self = .array(elements.map(SpecValue.init(json:)))
        case .object(let members): self = .object(Self.lastOfEachKey(members))
        }
    }

    /// `members` as fields, a key given twice keeping its last value where it was last written.
    /// A small object (a device, a rule: a few fields) is checked pair by pair, building no
    /// dictionary; a large one by a dictionary of each key's last index.
    private static func lastOfEachKey(_ members: [(key: String, value: JSONValue)]) -> [(
        key: String, value: SpecValue
    )] {
        var fields: [(key: String, value: SpecValue)] = []
        fields.reserveCapacity(members.count)
        if members.count <= 16 {
            for index in members.indices {
                let key = members[index].key
                if members[(index + 1)...].contains(where: { $0.key == key }) { continue }
                fields.append((key, SpecValue(json: members[index].value)))
            }
            return fields
        }
        var last: [String: Int] = [:]
        for (index, member) in members.enumerated() { last[member.key] = index }
        for (index, member) in members.enumerated() where last[member.key] == index {
            fields.append((member.key, SpecValue(json: member.value)))
        }
        return fields
    }

    /// The value as JSON: YAML plain scalars become numbers or booleans when they read as
    /// one (`3`, `true`), and strings otherwise (a hex token stays a string).
    public var json: JSONValue { json(textKeys: []) }

    /// The keys whose plain scalars are always text: device tokens, which are hex even when
    /// written unquoted with digits only (`token: 5701…0001`).
    public static let tokenKeys: Set<String> = ["token", "tokenPrefix"]

    /// The value as JSON, as `json` reads it, except that a plain scalar that is the value of a
    /// key in `textKeys` (at any depth) stays a string.
    public func json(textKeys: Set<String>) -> JSONValue {
        switch self {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .integer(let value): return .integer(value)
        case .number(let value): return .number(value, text: String(value))
        case .string(let text): return .string(text)
        case .plain(let text):
            if text == "true" || text == "false" { return .bool(text == "true") }
            if let number = JSONValue.parse(text), case .number = number { return number }
            return .string(text)
        case .array(let elements): return .array(elements.map { $0.json(textKeys: textKeys) })
        case .object(let fields):
            return .object(
                fields.map { field in
                    if textKeys.contains(field.key), case .plain(let text) = field.value {
                        return (field.key, .string(text))
                    }
                    return (field.key, field.value.json(textKeys: textKeys))
                })
        }
    }

    // MARK: YAML

    /// Parses the YAML document in `yaml` (`YAMLReader`); an empty document is an empty object.
    /// - Throws: `SpecError` with an empty path and a one-line problem (with line and column)
    ///   when the text is not YAML, holds a second document, has a key twice, or has a key that
    ///   is not a scalar. Anchors and aliases are resolved.
    public static func parse(yaml: String) throws(SpecError) -> SpecValue {
        var lines: [String: Int] = [:]
        return try parse(yaml: yaml, lines: &lines)
    }

    /// The same, also saying on which line each key path starts (`expect[0].count` → 12), for
    /// messages about a value that parsed but cannot be used.
    public static func parse(yaml: String, lines: inout [String: Int]) throws(SpecError) -> SpecValue {
        var reader = YAMLReader()
        let root = try reader.read(yaml)
        lines.merge(reader.lines) { _, read in read }
        return root ?? .object([])
    }
}
