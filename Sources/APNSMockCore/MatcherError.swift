/// A matcher field that could not be read: what is wrong (`code`), which field (`field`), and
/// the rest of the sentence (`problem`). The sentence is built from these, naming the field as
/// the reader wrote it: a matcher field in a file or body, a query parameter in a URL.
public struct MatcherError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of mistake; errors are equal when their codes, fields and problems are.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Backing: String, Sendable, Hashable {
            case unknownField, invalidValue, emptyValue, missingPath, missingField, notAnObject
        }
        private let backing: Backing
        private init(_ backing: Backing) { self.backing = backing }

        /// No matcher field has this name.
        public static let unknownField = Code(.unknownField)
        /// The value is not one the field takes.
        public static let invalidValue = Code(.invalidValue)
        /// The value (or a path step) is empty.
        public static let emptyValue = Code(.emptyValue)
        /// `payload`, `preview` or `headers` without the path it needs.
        public static let missingPath = Code(.missingPath)
        /// A field that must be there is not.
        public static let missingField = Code(.missingField)
        /// A matcher (or a part of one) that must be an object is not.
        public static let notAnObject = Code(.notAnObject)

        public var description: String { backing.rawValue }
    }

    public let code: Code
    /// The field as written: a name (`status`, `headers.apns-id`) or a key path
    /// (`expect[0].match.status`).
    public let field: String
    /// How the sentence names `field`.
    public let naming: Naming
    /// What is wrong, phrased to follow the field: `must be an HTTP status code such as 200 or
    /// 410; got 'abc'`; for an unknown matcher field, what follows its name (`; known: token, …`).
    public let problem: String

    /// How a sentence names the field.
    public enum Naming: Sendable, Hashable {
        /// As a field of its kind: `matcher field 'status'`, `query parameter 'status'`.
        case field
        /// As a key path in quotes: `'expect[0].match.headers'`.
        case quotedPath
        /// As a key path: `expect[0].within` (an expectation's own fields).
        case path
    }

    public init(_ code: Code, field: String, naming: Naming = .field, _ problem: String) {
        self.code = code
        self.field = field
        self.naming = naming
        self.problem = problem
    }

    /// The sentence, with a field named as `noun` (`matcher field`, `query parameter`).
    public func message(naming noun: String) -> String {
        let name =
            switch naming {
            case .field: "\(noun) '\(field)'"
            case .quotedPath: "'\(field)'"
            case .path: field
            }
        return code == .unknownField && naming == .field ? "unknown \(name)\(problem)" : "\(name) \(problem)"
    }

    /// The sentence, naming the field as a matcher field.
    public var message: String { message(naming: "matcher field") }

    public var description: String { message }
}
