import APNSMockCore

/// Reads the fields of one JSON or YAML object, each error naming the field's key path.
///
/// Every getter treats a missing field and `null` alike (`nil`); `rejectUnknownFields(known:)`
/// turns a typo into an error instead of a silently ignored setting.
public struct SpecObject: Sendable {
    /// The object's own key path (empty at the root).
    public var path: String { index.map { SpecError.join(parentPath, index: $0) } ?? parentPath }
    /// The path, or with `index` the list's path: an entry's path (`devices[3]`) is written only
    /// when an error names it, not for each of a million entries read.
    private let parentPath: String
    private let index: Int?
    private let fields: [(key: String, value: SpecValue)]

    /// Reads `value` as an object.
    /// - Throws: `SpecError` at `path` when `value` is not an object.
    public init(_ value: SpecValue, path: String) throws(SpecError) {
        try self.init(value, parentPath: path, index: nil)
    }

    /// Reads `value`, entry `index` of the list at `listPath`, as an object.
    /// - Throws: `SpecError` at `listPath[index]` when `value` is not an object.
    public init(_ value: SpecValue, listPath: String, index: Int) throws(SpecError) {
        try self.init(value, parentPath: listPath, index: index)
    }

    private init(_ value: SpecValue, parentPath: String, index: Int?) throws(SpecError) {
        self.parentPath = parentPath
        self.index = index
        guard case .object(let fields) = value else {
            self.fields = []
            throw SpecError(path: path, problem: "must be an object of named fields; got \(value.kindDescription)")
        }
        self.fields = fields
    }

    /// The field names, in the order written.
    public var keys: [String] { fields.map(\.key) }

    /// The key path of field `key`.
    public func path(of key: String) -> String { SpecError.join(path, key: key) }

    /// The value of `key`; `nil` when absent or `null`.
    public func value(_ key: String) -> SpecValue? {
        guard let value = fields.first(where: { $0.key == key })?.value else { return nil }
        if case .null = value { return nil }
        return value
    }

    /// Whether `key` is present with a value other than `null`.
    public func has(_ key: String) -> Bool { value(key) != nil }

    /// An error about field `key`.
    public func error(_ key: String, _ problem: String) -> SpecError {
        SpecError(path: path(of: key), problem: problem)
    }

    /// Fails on the first field not in `known`, listing the known ones.
    public func rejectUnknownFields(known: [String]) throws(SpecError) {
        for key in keys where !known.contains(key) {
            throw SpecError(
                path: path(of: key),
                problem:
                    "is not a known field\(NameSuggestion.didYouMean(key, among: known)); known fields: \(known.joined(separator: ", "))",
                code: .unknownField)
        }
    }

    /// A string (a YAML plain scalar counts as its text).
    public func string(_ key: String) throws(SpecError) -> String? {
        guard let value = value(key) else { return nil }
        switch value {
        case .string(let text), .plain(let text): return text
        default: throw error(key, "must be a string; got \(value.kindDescription)")
        }
    }

    /// A string that is present and not empty.
    public func requiredString(_ key: String) throws(SpecError) -> String {
        guard let text = try string(key) else { throw error(key, "is required") }
        guard !text.isEmpty else { throw error(key, "must not be empty") }
        return text
    }

    /// An integer within `range`.
    public func integer(_ key: String, in range: ClosedRange<Int64>) throws(SpecError) -> Int64? {
        guard let value = value(key) else { return nil }
        if case .integer(let number) = value, range.contains(number) { return number }
        return try Self.integer(value, path: path(of: key), in: range)
    }

    /// `value` read as an integer within `range`; errors name `path`.
    public static func integer(_ value: SpecValue, path: String, in range: ClosedRange<Int64>) throws(SpecError)
        -> Int64
    {
        let number: Int64?
        switch value {
        case .integer(let integer): number = integer
        case .number(let double): number = Int64(exactly: double)
        case .plain(let text): number = Int64(String(text.filter { $0 != "_" }))
        default: number = nil
        }
        guard let number else {
            throw SpecError(path: path, problem: "must be a whole number; got \(value.kindDescription)")
        }
        guard range.contains(number) else {
            throw SpecError(path: path, problem: "must be \(range.lowerBound)–\(range.upperBound); got \(number)")
        }
        return number
    }

    /// A boolean (YAML also takes yes/no and on/off).
    public func bool(_ key: String) throws(SpecError) -> Bool? {
        guard let value = value(key) else { return nil }
        switch value {
        case .bool(let flag): return flag
        case .plain(let text):
            switch text.lowercased() {
            case "true", "yes", "on": return true
            case "false", "no", "off": return false
            default: break
            }
        default: break
        }
        throw error(key, "must be true or false; got \(value.kindDescription)")
    }

    /// A list.
    public func array(_ key: String) throws(SpecError) -> [SpecValue]? {
        guard let value = value(key) else { return nil }
        guard case .array(let elements) = value else {
            throw error(key, "must be a list; got \(value.kindDescription)")
        }
        return elements
    }

    /// A list of strings.
    public func strings(_ key: String) throws(SpecError) -> [String]? {
        guard let elements = try array(key) else { return nil }
        var strings: [String] = []
        for (index, element) in elements.enumerated() {
            switch element {
            case .string(let text), .plain(let text): strings.append(text)
            default:
                throw SpecError(
                    path: SpecError.join(path(of: key), index: index),
                    problem: "must be a string; got \(element.kindDescription)")
            }
        }
        return strings
    }

    /// A nested object.
    public func object(_ key: String) throws(SpecError) -> SpecObject? {
        guard let value = value(key) else { return nil }
        return try SpecObject(value, path: path(of: key))
    }

    /// One of a fixed set of words, e.g. `sandbox`, `production` or `both`.
    public func choice<T>(_ key: String, _ choices: KeyValuePairs<String, T>) throws(SpecError) -> T? {
        guard let text = try string(key) else { return nil }
        if let match = choices.first(where: { $0.key == text }) { return match.value }
        let words = choices.map(\.key)
        let list =
            words.count <= 2
            ? words.joined(separator: " or ")
            : words.dropLast().joined(separator: ", ") + " or " + words[words.count - 1]
        throw error(key, "must be \(list); got '\(text)'")
    }
}
