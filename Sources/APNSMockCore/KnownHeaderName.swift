/// Header names the APNs rules and the record care about, each with a one-byte code.
///
/// `HeaderBlock` stores these names as their code, so the rules switch on a number instead of
/// comparing strings and a record spends one byte on the name.
public enum KnownHeaderName: UInt8, CaseIterable, Sendable {
    case authorization = 1
    case apnsID
    case apnsTopic
    case apnsPushType
    case apnsPriority
    case apnsExpiration
    case apnsCollapseID
    case contentType
    case contentLength
    case userAgent
    case host
    case acceptEncoding
    /// A broadcast's or channel-management request's channel (APNS-REFERENCE §6).
    case apnsChannelID
    /// The broadcast and channel APIs' request identifier, echoed in the response.
    case apnsRequestID

    /// The lower-case header name.
    public var name: String { Self.names[Int(rawValue) - 1] }

    /// Every name as a string, made once (by raw value, which starts at 1).
    private static let names = allCases.map { $0.spelling.description }

    /// The lower-case header name's bytes.
    public var spelling: StaticString {
        switch self {
        case .authorization: "authorization"
        case .apnsID: "apns-id"
        case .apnsTopic: "apns-topic"
        case .apnsPushType: "apns-push-type"
        case .apnsPriority: "apns-priority"
        case .apnsExpiration: "apns-expiration"
        case .apnsCollapseID: "apns-collapse-id"
        case .contentType: "content-type"
        case .contentLength: "content-length"
        case .userAgent: "user-agent"
        case .host: "host"
        case .acceptEncoding: "accept-encoding"
        case .apnsChannelID: "apns-channel-id"
        case .apnsRequestID: "apns-request-id"
        }
    }

    /// Whether the name starts with `apns-`: repeated, it is a `DuplicateHeaders` error.
    public var isAPNSHeader: Bool {
        switch self {
        case .apnsID, .apnsTopic, .apnsPushType, .apnsPriority, .apnsExpiration, .apnsCollapseID, .apnsChannelID,
            .apnsRequestID:
            true
        default: false
        }
    }

    /// The known name spelled by `bytes` (exactly, lower case), if any.
    public static func matching(_ bytes: UnsafeBufferPointer<UInt8>) -> KnownHeaderName? {
        // The length narrows it to one or two candidates; then one comparison.
        let candidates: (KnownHeaderName?, KnownHeaderName?)
        switch bytes.count {
        case 4: candidates = (.host, nil)
        case 7: candidates = (.apnsID, nil)
        case 10: candidates = (.apnsTopic, .userAgent)
        case 12: candidates = (.contentType, nil)
        case 13: candidates = (.authorization, .apnsPriority)
        case 14: candidates = (.apnsPushType, .contentLength)
        case 15:
            // Four names of 15 bytes; their sixth byte tells them apart.
            switch bytes[5] {
            case UInt8(ascii: "e"): candidates = (.apnsExpiration, nil)
            case UInt8(ascii: "t"): candidates = (.acceptEncoding, nil)
            case UInt8(ascii: "c"): candidates = (.apnsChannelID, nil)
            case UInt8(ascii: "r"): candidates = (.apnsRequestID, nil)
            default: return nil
            }
        case 16: candidates = (.apnsCollapseID, nil)
        default: return nil
        }
        if let first = candidates.0, first.spelled(by: bytes) { return first }
        if let second = candidates.1, second.spelled(by: bytes) { return second }
        return nil
    }

    private func spelled(by bytes: UnsafeBufferPointer<UInt8>) -> Bool { ASCIIBytes.equal(bytes, spelling) }
}
