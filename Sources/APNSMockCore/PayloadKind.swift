import Foundation

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

    /// Classifies `bytes` by parsing them. Costs a JSON parse: keep it off the answer path
    /// unless a strict option needs it.
    public static func classify(_ bytes: [UInt8]) -> PayloadKind {
        if bytes.isEmpty { return .empty }
        guard let value = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) else {
            return .notJSON
        }
        return value is [String: Any] ? .object : .otherJSON
    }
}
