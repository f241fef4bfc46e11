/// What one pass over a request's headers found; filled in as the checks run. Shared by the
/// device-push, broadcast and channel-management rules.
struct RequestFacts {
    var rawToken: Substring?
    var deviceToken: String?
    var hasDuplicates = false
    var apnsID: String?
    var pushTypeHeader: String?
    var pushType: APNSPushType?
    var topic: String?
    var priority: String?
    var expiration: String?
    var collapseID: String?
    /// `apns-channel-id` (broadcast and channel management).
    var channelID: String?
    /// `apns-request-id` (broadcast and channel management).
    var requestID: String?
    /// Where the (first) `authorization` value sits in the request's header block.
    var authorization: Range<Int>?
    var effectiveTopic: String?
    var timestamp: Int64?
    var authentication: AuthenticationResult?
    var nextAuthState: ConnectionAuthState?
    var newToken: NewProviderToken?
    var goAway = false
    /// Why the failing check failed, in words, for the record's `detail` (set only on failure).
    var detail: String?

    /// Notes why the check fails and returns its reason: `return facts.fail(.badPriority, "…")`.
    /// The words are built only for a failure, never for an accepted request.
    mutating func fail(_ reason: APNSReason, _ detail: String) -> APNSReason {
        self.detail = detail
        return reason
    }

    init(_ request: APNSRequest) {
        let block = request.headerBlock
        var seenKnown: UInt32 = 0
        var seenOther: [String] = []
        for field in block {
            guard let known = field.knownName else {
                // An apns-* header this version does not know: only its repetition matters.
                let isAPNS = block.withBytes(field.nameRange) { $0.starts(with: "apns-".utf8) }
                guard isAPNS else { continue }
                let name = block.string(field.nameRange)
                if seenOther.contains(name) { hasDuplicates = true } else { seenOther.append(name) }
                continue
            }
            guard known == .authorization || known.isAPNSHeader else { continue }
            let bit: UInt32 = 1 << known.rawValue
            if seenKnown & bit != 0 {
                hasDuplicates = true
                continue
            }
            seenKnown |= bit
            switch known {
            case .authorization: authorization = field.valueRange
            case .apnsID: apnsID = block.string(field.valueRange)
            case .apnsPushType: pushTypeHeader = block.string(field.valueRange)
            case .apnsTopic: topic = block.string(field.valueRange)
            case .apnsPriority: priority = block.string(field.valueRange)
            case .apnsExpiration: expiration = block.string(field.valueRange)
            case .apnsCollapseID: collapseID = block.string(field.valueRange)
            case .apnsChannelID: channelID = block.string(field.valueRange)
            case .apnsRequestID: requestID = block.string(field.valueRange)
            default: break
            }
        }
    }
}
