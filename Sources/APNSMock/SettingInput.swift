import APNSMockCore
import APNSMockRegistry

/// One setting's value as one source gives it, for its declaration's `read`.
///
/// Every source gives a `SpecValue`: a configuration file its YAML value, a flag or an
/// environment variable its text as a YAML plain scalar (`.plain`), a switch `.bool`, a repeated
/// flag the list of its values. So a value is read and checked the same way from every source,
/// and a problem names the setting as its source does: `--port must be 0–65535; got 70000`,
/// `port must be 0–65535; got 70000` (after the file's name), `APNS_MOCK_ADMIN_TOKEN must be …`.
public struct SettingInput: Sendable {
    /// The value as given.
    public let value: SpecValue
    /// The setting as its source names it (`--port`, `port`, `port[1]`, `APNS_MOCK_ADMIN_TOKEN`).
    public let name: String
    /// The directory relative paths are resolved against (the configuration file's); `nil`: as given.
    public let baseDirectory: String?
    /// Whether the elements of a list are named by index (`port[1]`, in a file) or by the
    /// setting's name (`--port`, each given by its own flag).
    let indexesElements: Bool

    public init(_ value: SpecValue, name: String, baseDirectory: String? = nil, indexesElements: Bool = true) {
        self.value = value
        self.name = name
        self.baseDirectory = baseDirectory
        self.indexesElements = indexesElements
    }

    /// A problem with this value: `name problem`.
    public func problem(_ problem: String) -> SpecError { SpecError(path: name, problem: problem) }

    /// The value as the one field of an object, to read it with `SpecObject`'s readers (the
    /// same words as every other YAML and JSON field).
    private var field: SpecObject {
        get throws(SpecError) { try SpecObject(.object([(key: name, value: value)]), path: "") }
    }

    /// A string (a YAML plain scalar, or a flag's text, counts as its text).
    public func string() throws(SpecError) -> String {
        guard let text = try field.string(name) else { throw problem("is required") }
        return text
    }

    /// A string that is not empty.
    public func nonEmptyString() throws(SpecError) -> String {
        let text = try string()
        guard !text.isEmpty else { throw problem("must not be empty") }
        return text
    }

    /// A path, resolved against `baseDirectory`.
    public func path() throws(SpecError) -> String {
        let text = try nonEmptyString()
        guard let baseDirectory else { return text }
        return ProviderKeySpec.resolve(text, against: baseDirectory)
    }

    /// An `https://` URL with a host (`https://localhost:32768`), without a trailing slash.
    public func httpsURL() throws(SpecError) -> String {
        let text = try nonEmptyString()
        let rest = text.lowercased().hasPrefix("https://") ? text.dropFirst("https://".count) : nil
        guard let rest, !rest.isEmpty, !rest.hasPrefix("/"), !rest.hasPrefix(":"), !rest.contains(" ") else {
            throw problem("must be an https:// URL such as https://localhost:32768; got '\(text)'")
        }
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    /// A whole number within `range`.
    public func integer(in range: ClosedRange<Int64>) throws(SpecError) -> Int64 {
        try SpecObject.integer(value, path: name, in: range)
    }

    /// true or false (also yes/no and on/off).
    public func bool() throws(SpecError) -> Bool {
        guard let flag = try field.bool(name) else { throw problem("is required") }
        return flag
    }

    /// One of a fixed set of words.
    public func choice<T>(_ choices: KeyValuePairs<String, T>) throws(SpecError) -> T {
        guard let choice = try field.choice(name, choices) else { throw problem("is required") }
        return choice
    }

    /// The elements of a list; a single value is a list of one when `allowsOne`.
    public func elements(allowsOne: Bool) throws(SpecError) -> [SettingInput] {
        guard case .array(let values) = value else {
            guard allowsOne else { throw problem("must be a list; got \(value.kindDescription)") }
            return [self]
        }
        return values.enumerated().map { index, element in
            SettingInput(
                element, name: indexesElements ? "\(name)[\(index)]" : name, baseDirectory: baseDirectory,
                indexesElements: indexesElements)
        }
    }
}
