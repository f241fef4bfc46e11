/// A field of a JSON body or YAML file that cannot be used: where it is, and what is wrong.
///
/// `path` is the field's key path from the document's root (`setup.keys[0].environment`;
/// empty for the document itself); `problem` completes the sentence
/// (`must be sandbox, production or both; got 'prod'`).
public struct SpecError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of mistake.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Backing: String, Sendable, Hashable {
            case invalidValue, unknownField, duplicateField, unreadable
        }
        private let backing: Backing
        private init(_ backing: Backing) { self.backing = backing }

        /// A field's value is not one it takes.
        public static let invalidValue = Code(.invalidValue)
        /// A field the document does not have.
        public static let unknownField = Code(.unknownField)
        /// A field given twice.
        public static let duplicateField = Code(.duplicateField)
        /// The document is not JSON or YAML, or cannot be read.
        public static let unreadable = Code(.unreadable)

        public var description: String { backing.rawValue }
    }

    public var code: Code
    /// The key path of the offending field; empty for the whole document.
    public var path: String
    /// What is wrong, phrased to follow the path.
    public var problem: String

    public init(path: String, problem: String, code: Code = .invalidValue) {
        self.code = code
        self.path = path
        self.problem = problem
    }

    /// `setup.keys[0].environment must be sandbox, production or both; got 'prod'`.
    public var description: String { path.isEmpty ? problem : "\(path) \(problem)" }

    /// The same error for a document nested at `prefix` (`setup` + `keys[0]` → `setup.keys[0]`).
    public func nested(under prefix: String) -> SpecError {
        guard !prefix.isEmpty else { return self }
        guard !path.isEmpty else { return SpecError(path: prefix, problem: problem, code: code) }
        return SpecError(path: path.hasPrefix("[") ? prefix + path : prefix + "." + path, problem: problem, code: code)
    }

    /// `path.key`, or `key` at the root.
    static func join(_ path: String, key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// `path[index]`.
    static func join(_ path: String, index: Int) -> String { "\(path)[\(index)]" }
}
