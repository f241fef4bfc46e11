import APNSMockCore
import Testing

/// `APNSStatus.forReason`: the status table of "Handling notification responses from APNs"
/// (APNS-REFERENCE §3).
@Suite("APNSStatus.forReason")
struct StatusTests {
    struct StatusCase: Sendable, CustomTestStringConvertible {
        let reason: APNSReason
        let status: Int
        var testDescription: String { "\(reason) → \(status)" }
    }

    static let table: [Int: [String]] = [
        400: [
            "BadCollapseId", "BadDeviceToken", "BadExpirationDate", "BadMessageId", "BadPriority", "BadTopic",
            "DeviceTokenNotForTopic", "DuplicateHeaders", "IdleTimeout", "InvalidPushType", "MissingDeviceToken",
            "MissingTopic", "PayloadEmpty", "TopicDisallowed",
        ],
        403: [
            "BadCertificate", "BadCertificateEnvironment", "ExpiredProviderToken", "Forbidden",
            "InvalidProviderToken", "MissingProviderToken", "UnrelatedKeyIdInToken", "BadEnvironmentKeyIdInToken",
            // The spelling also seen on the wire.
            "BadEnvironmentKeyInToken",
        ],
        404: ["BadPath"],
        405: ["MethodNotAllowed"],
        410: ["Unregistered", "ExpiredToken"],
        413: ["PayloadTooLarge"],
        429: ["TooManyProviderTokenUpdates", "TooManyRequests"],
        500: ["InternalServerError"],
        503: ["ServiceUnavailable", "Shutdown"],
    ]

    static let cases: [StatusCase] = table.keys.sorted().flatMap { status in
        table[status]!.map { StatusCase(reason: APNSReason($0), status: status) }
    }

    @Test("Every documented reason has its documented status", arguments: cases)
    func documented(_ row: StatusCase) {
        #expect(APNSStatus.forReason(row.reason) == row.status)
    }

    /// The reasons of the broadcast and channel APIs (APNS-REFERENCE §6; Apple's "Handling error
    /// responses from APNs", "Sending broadcast push notification requests to APNs" and "Sending
    /// channel management requests to APNs"), with the device-push reasons that also apply.
    /// Apple's status list for these APIs has no 410; the §6 reasons are request defects (400),
    /// but TopicMismatch (credentials for another app) is 403 in Apple's table.
    static let broadcastTable: [Int: [String]] = [
        400: [
            "FeatureNotEnabled", "MissingChannelId", "BadChannelId", "ChannelNotRegistered", "BadRequestParams",
            "BadRequestPayload", "MissingPushType", "InvalidPushType", "CannotCreateChannelConfig",
            "TopicDisallowed", "BadExpirationDate", "BadPriority", "BadMessageId", "PayloadEmpty", "DuplicateHeaders",
        ],
        403: [
            "BadCertificate", "BadCertificateEnvironment", "ExpiredProviderToken", "Forbidden",
            "InvalidProviderToken", "MissingProviderToken", "TopicMismatch",
        ],
        404: ["BadPath"],
        405: ["MethodNotAllowed"],
        413: ["PayloadTooLarge"],
        429: ["TooManyRequests"],
        500: ["InternalServerError"],
        // "Service Unavailable" with Apple's space, as the broadcast pages spell it.
        503: ["Service Unavailable", "Shutdown"],
    ]

    static let broadcastCases: [StatusCase] = broadcastTable.keys.sorted().flatMap { status in
        broadcastTable[status]!.map { StatusCase(reason: APNSReason($0), status: status) }
    }

    @Test("Every broadcast and channel reason has its status", arguments: broadcastCases)
    func broadcast(_ row: StatusCase) {
        #expect(APNSStatus.forReason(row.reason) == row.status)
    }

    @Test("The broadcast and channel members carry Apple's exact spelling")
    func broadcastSpelling() {
        let members: [APNSReason] = [
            .featureNotEnabled, .missingChannelId, .badChannelId, .channelNotRegistered, .badRequestParams,
            .badRequestPayload, .missingPushType, .invalidPushType, .cannotCreateChannelConfig, .topicMismatch,
            .topicDisallowed, .serviceUnavailableWithSpace,
        ]
        #expect(
            members.map(\.rawValue) == [
                "FeatureNotEnabled", "MissingChannelId", "BadChannelId", "ChannelNotRegistered", "BadRequestParams",
                "BadRequestPayload", "MissingPushType", "InvalidPushType", "CannotCreateChannelConfig",
                "TopicMismatch", "TopicDisallowed", "Service Unavailable",
            ])
        // The device API's spelling stays as it was: two reasons, two spellings.
        #expect(APNSReason.serviceUnavailable != .serviceUnavailableWithSpace)
        for member in members { #expect(APNSReason(rawValue: member.rawValue) == member) }
    }

    @Test("The mock's own reasons")
    func mockReasons() {
        #expect(APNSStatus.forReason(.headerListTooLarge) == 431)
        // Broadcast's name for a malformed body, used by --strict-payload.
        #expect(APNSStatus.forReason(.badRequestPayload) == 400)
    }

    @Test("A reason APNs does not list answers 400", arguments: ["SomethingNew", "", "badpath", "Unregistered "])
    func unknown(raw: String) {
        #expect(APNSStatus.forReason(APNSReason(raw)) == 400)
    }

    @Test("The static members carry Apple's exact spelling")
    func spelling() {
        let members: [APNSReason] = [
            .badCollapseId, .badDeviceToken, .badExpirationDate, .badMessageId, .badPriority, .badTopic,
            .deviceTokenNotForTopic, .duplicateHeaders, .idleTimeout, .invalidPushType, .missingDeviceToken,
            .missingTopic, .payloadEmpty, .topicDisallowed, .badCertificate, .badCertificateEnvironment,
            .expiredProviderToken, .forbidden, .invalidProviderToken, .missingProviderToken, .unrelatedKeyIdInToken,
            .badEnvironmentKeyIdInToken, .badPath, .methodNotAllowed, .unregistered, .expiredToken, .payloadTooLarge,
            .tooManyProviderTokenUpdates, .tooManyRequests, .internalServerError, .serviceUnavailable, .shutdown,
        ]
        let documented = Set(Self.table.values.joined()).subtracting(["BadEnvironmentKeyInToken"])
        #expect(Set(members.map(\.rawValue)) == documented)
        #expect(members.count == documented.count)
        for member in members {
            #expect(member.description == member.rawValue)
            #expect(APNSReason(rawValue: member.rawValue) == member)
        }
    }
}
