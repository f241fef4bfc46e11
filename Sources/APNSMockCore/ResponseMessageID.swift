/// The `apns-id` (or `apns-unique-id`) of an answer: the client's, echoed byte for byte, or 128
/// random bits shown as a UUID. A generated id stays bits until it is written out, so the
/// answer path makes no string for it.
public enum ResponseMessageID: Sendable, Hashable {
    case echoed(String)
    case generated(high: UInt64, low: UInt64, lowercase: Bool)

    /// A new random id.
    public static func generate(using generator: inout some RandomNumberGenerator, lowercase: Bool = false) -> Self {
        let bits = APNSMessageID.generateBits(using: &generator)
        return .generated(high: bits.high, low: bits.low, lowercase: lowercase)
    }

    /// The id as text.
    public var text: String {
        switch self {
        case .echoed(let text): text
        case .generated(let high, let low, let lowercase):
            APNSMessageID.format(high: high, low: low, lowercase: lowercase)
        }
    }

    /// Whether the id was generated, not sent by the client.
    public var isGenerated: Bool {
        if case .generated = self { return true }
        return false
    }

    /// Calls `body` with the id's UTF-8 bytes.
    public func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        switch self {
        case .echoed(var text):
            return text.withUTF8(body)
        case .generated(let high, let low, let lowercase):
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 36) { buffer in
                APNSMessageID.write(high: high, low: low, lowercase: lowercase, into: buffer)
                return body(UnsafeBufferPointer(buffer))
            }
        }
    }
}
