/// What a payload is, for the record and for `--strict-payload`.
public enum PayloadKind: String, Sendable, Codable {
    /// No bytes.
    case empty
    /// A JSON object, as APNs expects.
    case object
    /// Valid JSON that is not an object (an array, a string, a number…).
    case otherJSON
    /// Not JSON at all.
    case notJSON
    /// Larger than the push type's limit; only the first bytes were kept.
    case truncated

    /// Classifies `bytes` with a syntax check (`JSONSyntax`): one pass, no tree built.
    public static func classify(_ bytes: [UInt8]) -> PayloadKind {
        if bytes.isEmpty { return .empty }
        switch bytes.withUnsafeBufferPointer(JSONSyntax.check) {
        case .object: return .object
        case .otherValue: return .otherJSON
        case .invalid: return .notJSON
        }
    }
}
