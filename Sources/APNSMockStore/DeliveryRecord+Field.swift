import APNSMockCore

extension DeliveryRecord {
    /// Every field of a record, once, with its definition (`definition`): the keys it writes in
    /// the admin JSON, the matcher fields that read it, and where the store keeps it. The JSON
    /// (`DeliveryRecordJSON`) switches over this list, so a new case does not compile until it
    /// says how to show it; `RecordFieldTableTests` fails when the stored form (a blob entry per
    /// variable field, a round trip of every field), the JSON keys, the matcher's fields or the
    /// OpenAPI document's `Delivery` schema disagree with the definitions.
    public enum Field: UInt8, CaseIterable, Sendable {
        case sequence
        case kind
        case receivedAt
        case connectionID
        case streamID
        case environment
        case method
        case path
        case authority
        case token
        case headers
        case topic
        case pushType
        case apnsID
        case uniqueID
        case payload
        case payloadSize
        case authentication
        case response
        case outcome
        case faultID
        case channelID
        case detail
        case delivery
        case webPush

        /// Every field in declaration order, made once (`allCases` builds a new array per call).
        static let all = allCases
        /// The fields kept in a record's blob (`RecordCodec`), in declaration order.
        static let variable = all.filter { $0.definition.storage == .variable }

        /// The field's definition.
        public var definition: Definition { Self.definitions[Int(rawValue)] }

        /// The table: one row per field, in declaration order.
        private static let definitions: [Definition] = all.map { field in
            switch field {
            case .sequence: Definition(json: ["sequence"], storage: .fixed)
            case .kind: Definition(json: ["kind"], matcher: ["kind"], storage: .fixed)
            case .receivedAt: Definition(json: ["receivedAt", "respondedAt"], storage: .fixed)
            case .connectionID: Definition(json: ["connectionId"], matcher: ["connectionId"], storage: .fixed)
            case .streamID: Definition(json: ["streamId"], storage: .fixed)
            case .environment: Definition(json: ["environment"], matcher: ["environment"], storage: .fixed)
            case .method: Definition(json: ["method"], storage: .variable)
            case .path: Definition(json: ["path"], storage: .variable)
            case .authority: Definition(json: ["authority"], storage: .variable)
            case .token:
                Definition(json: ["token"], matcher: ["token", "tokenPrefix", "subscriptionId"], storage: .variable)
            case .headers:
                Definition(
                    json: ["headers", "authorization", "priority", "expiration", "collapseId"],
                    matcher: ["headers", "priority", "collapseId"], storage: .variable)
            case .topic: Definition(json: ["topic"], matcher: ["topic"], storage: .fixed)
            case .pushType: Definition(json: ["pushType"], matcher: ["pushType"], storage: .fixed)
            case .apnsID: Definition(json: ["apnsId", "apnsIdGenerated"], matcher: ["apnsId"], storage: .variable)
            case .uniqueID: Definition(json: ["uniqueId"], storage: .variable)
            case .payload:
                Definition(
                    json: ["payloadKind", "payload"], matcher: ["payload", "lint", "preview"], storage: .variable)
            case .payloadSize: Definition(json: ["payloadSize"], storage: .fixed)
            case .authentication: Definition(json: ["auth"], matcher: ["authMethod"], storage: .variable)
            case .response: Definition(json: ["response"], matcher: ["status", "reason"], storage: .fixed)
            case .outcome: Definition(json: ["outcome"], matcher: ["outcome"], storage: .fixed)
            case .faultID: Definition(json: ["faultId"], matcher: ["faultId"], storage: .fixed)
            case .channelID:
                Definition(json: ["channelId", "viaChannel"], matcher: ["channelId"], storage: .variable)
            case .detail: Definition(json: ["detail"], storage: .variable)
            case .delivery:
                Definition(
                    json: ["delivery", "deliveryHistory"], matcher: ["delivery", "deliveryReason"],
                    storage: .judged)
            case .webPush: Definition(json: ["webPush"], matcher: ["webPush"], storage: .variable)
            }
        }
    }

    /// Where the store keeps a field.
    public enum Storage: Sendable {
        /// In `StoredDelivery`: filtered without decoding, and (the answer) completed in place.
        case fixed
        /// A tagged entry of the record's blob, found by tag, decoded only when read.
        case variable
        /// In the store's table of what the delivery model judged (`deliveryHistory`), for the
        /// records it judged; derived from the answer for the others.
        case judged
    }

    /// One field's definition.
    public struct Definition: Sendable {
        /// The keys the field writes into a record's JSON, in order.
        public let json: [String]
        /// The same keys as `DeliveryRecordJSON` writes them (copied, nothing to escape).
        let writtenKeys: [StaticString]
        /// The matcher fields that read it (`DeliveryMatcher.fieldNames`).
        public let matcher: [String]
        public let storage: Storage

        init(json: [StaticString], matcher: [String] = [], storage: Storage) {
            self.json = json.map(\.description)
            writtenKeys = json
            self.matcher = matcher
            self.storage = storage
        }
    }

    /// The keys of a record's JSON, in order, from the field definitions; then the analysis
    /// (`DeliveryRecordJSON.analysisKeys`) once a record has been analysed.
    public static var jsonKeys: [String] { Field.all.flatMap(\.definition.json) }
}
