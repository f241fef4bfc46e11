import APNSMockCore
import DequeModule

/// How the store answers a matcher: which index to read, which conditions the fixed columns
/// of a stored record decide, and whether the rest needs the record decoded. The matcher says
/// what matches; using the indexes is the store's business.
struct QueryPlan {
    /// Lower-case token of a well-formed `token` condition (read from the token index).
    private var indexedToken: TokenKey?
    /// The `apnsId` of a well-formed `apnsId` condition (read from the apns-id index).
    private(set) var indexedAPNSID: UUIDKey?
    /// The record whose Core-generated id is `indexedAPNSID`, found before the query by
    /// `DeliveryStore.generatedSequence` (a generated id is not indexed).
    var generatedSequence: UInt64?
    private var topicIDs: [UInt32] = []
    private var pushTypes: [UInt8] = []
    private var statuses: [UInt16] = []
    private var reasonIDs: [UInt32] = []
    private var environments: [UInt8] = []
    private var connectionIDs: [UInt64] = []
    private var faultIDs: [UInt32] = []
    private var outcomes: [UInt8] = []
    private var kinds: [UInt8] = []
    /// Some condition names a topic or reason no record has, or an id that is no UUID.
    private(set) var matchesNothing = false
    /// Some condition needs the decoded record.
    private(set) var needsDecoding = false
    /// Some condition at all.
    let filters: Bool

    init(_ matcher: DeliveryMatcher, interner: StringInterner) {
        filters = !matcher.isEmpty
        for condition in matcher.conditions {
            switch condition {
            case .token(let token):
                if indexedToken == nil, DeviceToken.isLowercaseHexToken(token) {
                    indexedToken = TokenKey(token)
                } else {
                    needsDecoding = true
                }
            case .apnsID(let id):
                guard let key = UUIDKey(id) else {
                    matchesNothing = true
                    continue
                }
                if indexedAPNSID == nil { indexedAPNSID = key } else { needsDecoding = true }
            case .topic(let topic):
                guard let id = interner.existingID(for: topic) else {
                    matchesNothing = true
                    continue
                }
                topicIDs.append(id)
            case .reason(let reason):
                guard let id = interner.existingID(for: reason) else {
                    matchesNothing = true
                    continue
                }
                reasonIDs.append(id)
            case .pushType(let type): pushTypes.append(type.code)
            case .status(let status): statuses.append(UInt16(clamping: status))
            case .environment(let environment): environments.append(environment == .production ? 1 : 0)
            case .connectionID(let id): connectionIDs.append(id)
            case .outcome(let outcome): outcomes.append(outcome.code)
            case .kind(let kind): kinds.append(kind.code)
            case .faultID(let fault):
                guard let id = interner.existingID(for: fault) else {
                    matchesNothing = true
                    continue
                }
                faultIDs.append(id)
            case .subscriptionID, .webPush:
                // Only web pushes name a subscription or have Web Push facts: the kind column
                // narrows first.
                kinds.append(RecordKind.webPush.code)
                needsDecoding = true
            case .tokenPrefix, .collapseID, .priority, .authMethod, .header, .payload, .lint, .preview, .channelID,
                .delivery, .deliveryReason:
                needsDecoding = true
            }
        }
        // The apns-id index is read only when the token index is not.
        if indexedToken != nil, indexedAPNSID != nil { needsDecoding = true }
    }

    /// Whether the fixed columns of `stored` satisfy the conditions they decide.
    func columnsMatch(_ stored: StoredDelivery) -> Bool {
        for id in topicIDs where stored.topic != id { return false }
        for id in reasonIDs where stored.reason != id { return false }
        for code in pushTypes where stored.pushType != code { return false }
        let answered = stored.flags & StoredDelivery.flagPending == 0
        for status in statuses where !answered || stored.status != status { return false }
        for environment in environments where stored.environment != environment { return false }
        for id in connectionIDs where stored.connectionID != id { return false }
        for id in faultIDs where stored.fault != id { return false }
        for code in outcomes where stored.outcome != code { return false }
        for code in kinds where stored.kind != code { return false }
        return true
    }

    /// The sequence numbers an index gives, oldest first; `nil` when no index applies.
    func indexedSequences(_ state: DeliveryStore.State) -> Deque<UInt64>? {
        if let indexedToken { return state.byToken[indexedToken] ?? [] }
        if let indexedAPNSID { return state.sequences(apnsID: indexedAPNSID, generated: generatedSequence) }
        return nil
    }
}
