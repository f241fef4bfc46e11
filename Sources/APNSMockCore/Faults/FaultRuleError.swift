/// A fault rule that could not be read: the message names the offending field by its key path
/// (`'action.respond.status' must be an integer from 100 to 599`).
public struct FaultRuleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A sentence naming the offending field and what it must be.
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
