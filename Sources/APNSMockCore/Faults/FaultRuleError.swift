/// A fault rule (or a mode, behavior or throttle setting) that could not be read: what kind of
/// mistake (`code`) and a sentence naming the offending field by its key path
/// (`'action.respond.status' must be an integer from 200 to 599`).
public struct FaultRuleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of mistake.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Backing: String, Sendable, Hashable {
            case invalidValue, unknownField, missingField, duplicateField, duplicateID
        }
        private let backing: Backing
        private init(_ backing: Backing) { self.backing = backing }

        /// A field's value is not one it takes.
        public static let invalidValue = Code(.invalidValue)
        /// A field the rule does not have.
        public static let unknownField = Code(.unknownField)
        /// A field the rule needs is missing.
        public static let missingField = Code(.missingField)
        /// A field is given twice.
        public static let duplicateField = Code(.duplicateField)
        /// A rule with this id exists already.
        public static let duplicateID = Code(.duplicateID)

        public var description: String { backing.rawValue }
    }

    public let code: Code
    /// A sentence naming the offending field and what it must be.
    public let message: String

    public init(_ message: String, code: Code = .invalidValue) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
