import APNSMockCore

/// The compact form of one record inside `DeliveryStore`: the column fields of
/// `DeliveryRecord.Field` plus one blob of tagged entries (`RecordCodec`).
///
/// Strings that repeat across records (topics, reasons) are interned and held as numbers;
/// everything else sits in `blob` and is decoded only when a reader needs the record.
struct StoredDelivery: Sendable {
    var sequence: UInt64
    var receivedAt: Int64
    var respondedAt: Int64
    /// A 410's `timestamp`, or `noTimestamp`.
    var timestamp: Int64
    var connectionID: UInt64
    var streamID: Int32
    var payloadSize: Int32
    var status: UInt16
    var environment: UInt8
    /// `APNSPushType.code`, or `noPushType`.
    var pushType: UInt8
    var flags: UInt8
    /// `DeliveryOutcome.code`.
    var outcome: UInt8
    /// `RecordKind.code`.
    var kind: UInt8
    var reason: UInt32
    /// The interned id of the fault rule that acted, or 0.
    var fault: UInt32
    var topic: UInt32
    var blob: BlobRef
    /// A generated apns-id's low 64 bits (`flagGeneratedID`), else 0: looking the id up scans
    /// this column instead of a per-push index insert.
    var idLow: UInt64 = 0

    static let noPushType: UInt8 = 0xFF
    static let noTimestamp = Int64.min
    /// The apns-id was generated (Core's, as the answer carried it): not in the id index, its
    /// low bits in `idLow`.
    static let flagGeneratedID: UInt8 = 1
    /// The record has a token, and the token index lists it.
    static let flagIndexedToken: UInt8 = 2
    static let flagGoAway: UInt8 = 16
    /// Not answered (yet): status, reason, times of the response are not set.
    static let flagPending: UInt8 = 32
    /// Deleted by a scoped `DELETE`: skipped by every reader, gone at eviction.
    static let flagDeleted: UInt8 = 64
    /// A device's delivery of a broadcast: the blob holds the number of a shared part (every
    /// field but the token) and the token (`RecordCodec.encodeDelivery`).
    static let flagSharedPart: UInt8 = 8

    var isDeleted: Bool { flags & Self.flagDeleted != 0 }

    /// The response columns of `response` (none: pending).
    mutating func setResponse(_ response: DeliveryResponse?, outcome: DeliveryOutcome, reasonID: UInt32) {
        self.outcome = outcome.code
        guard let response else {
            flags |= Self.flagPending
            status = 0
            reason = 0
            respondedAt = 0
            timestamp = Self.noTimestamp
            return
        }
        flags &= ~Self.flagPending
        if response.goAway { flags |= Self.flagGoAway } else { flags &= ~Self.flagGoAway }
        status = response.status.map { UInt16(clamping: $0) } ?? 0
        reason = reasonID
        respondedAt = response.respondedAt
        timestamp = response.timestamp ?? Self.noTimestamp
    }
}
