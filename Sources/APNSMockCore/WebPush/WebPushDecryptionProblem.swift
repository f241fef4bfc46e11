/// Why a Web Push message body could not be decrypted with its subscription's keys: the first
/// thing wrong with it, as a browser receiving it would find it (RFC 8188 `aes128gcm`, with the
/// restrictions of RFC 8291 §4).
///
/// A push whose body does not decrypt is still answered 201 (Apple cannot read it either); the
/// record keeps the problem so the provider's encryption bug can be seen.
public enum WebPushDecryptionProblem: Error, Sendable, Hashable {
    /// The body ends before the end of its header: the header is salt (16 bytes), `rs` (4),
    /// `idlen` (1) and `keyid` (`idlen`), RFC 8188 §2.1. `headerLength` is 21 when the body
    /// does not even reach `idlen`.
    case bodyShorterThanHeader(bodyLength: Int, headerLength: Int)
    /// The header's record size is below 18, which RFC 8188 §2.1 calls invalid (a record needs
    /// 16 bytes of tag, 1 of padding delimiter and at least 1 more).
    case recordSizeBelowMinimum(recordSize: UInt32)
    /// `keyid` is not 65 bytes long; RFC 8291 §4 requires the application server's public key
    /// there as a 65-byte uncompressed P-256 point.
    case keyIDLength(Int)
    /// `keyid` is 65 bytes but not an uncompressed P-256 point (`0x04 || X || Y` on the curve).
    case keyIDNotUncompressedPoint(firstByte: UInt8)
    /// `keyid` holds the subscription's own public key (`p256dh`) instead of the application
    /// server's ephemeral public key.
    case keyIDIsSubscriptionKey
    /// The record after the header is shorter than 17 bytes (the 16-byte tag and the padding
    /// delimiter); 0 when the body stops right after the header.
    case recordTooShort(length: Int)
    /// The body's one record decrypts but is longer than the header's record size: RFC 8291 §4
    /// requires `rs` to be larger than the record (plaintext, delimiter, padding and tag).
    case recordSizeSmallerThanRecord(recordSize: UInt32, recordLength: Int)
    /// The body holds more than one record (its first `recordSize` bytes decrypt as a record of
    /// their own); RFC 8291 §4 requires a push message to be a single record.
    case multipleRecords(recordSize: UInt32, count: Int)
    /// AES-GCM authentication failed: the key derived from the subscription's keys is not the
    /// one the body was encrypted with, or the body was altered.
    case authenticationFailed
    /// The decrypted record does not end with the padding delimiter 0x02 followed by zero or
    /// more 0x00 bytes (RFC 8188 §2). `lastByte` is the last non-zero byte found instead, `nil`
    /// when the record holds only zeros.
    case noPaddingDelimiter(lastByte: UInt8?)
    /// The decrypted record's padding delimiter is 0x01, which RFC 8188 §2 reserves for a
    /// record that is not the last; a push message's only record ends with 0x02.
    case notLastRecordDelimiter

    /// A stable name for the problem, for records and matchers (`authenticationFailed`, …).
    public var code: String {
        switch self {
        case .bodyShorterThanHeader: "bodyShorterThanHeader"
        case .recordSizeBelowMinimum: "recordSizeBelowMinimum"
        case .keyIDLength: "keyIdLength"
        case .keyIDNotUncompressedPoint: "keyIdNotUncompressedPoint"
        case .keyIDIsSubscriptionKey: "keyIdIsSubscriptionKey"
        case .recordTooShort: "recordTooShort"
        case .recordSizeSmallerThanRecord: "recordSizeSmallerThanRecord"
        case .multipleRecords: "multipleRecords"
        case .authenticationFailed: "authenticationFailed"
        case .noPaddingDelimiter: "noPaddingDelimiter"
        case .notLastRecordDelimiter: "notLastRecordDelimiter"
        }
    }

    /// One sentence naming what is wrong, for the record and the dashboard.
    public var explanation: String {
        switch self {
        case .bodyShorterThanHeader(let bodyLength, let headerLength):
            "the body is \(bodyLength) bytes, shorter than its aes128gcm header (\(headerLength) bytes: salt 16, rs 4, "
                + "idlen 1, then the 65-byte keyid), so there is nothing to decrypt (RFC 8188 §2.1)"
        case .recordSizeBelowMinimum(let recordSize):
            "the header's record size (rs) is \(recordSize); RFC 8188 §2.1 makes an rs below 18 invalid "
                + "(send rs 4096, as browsers expect)"
        case .keyIDLength(let length):
            "the header's keyid is \(length) bytes; RFC 8291 §4 requires the application server's public key there, "
                + "a 65-byte uncompressed P-256 point"
        case .keyIDNotUncompressedPoint(let firstByte):
            "the header's keyid is 65 bytes but not an uncompressed P-256 point (it starts with \(Self.hex(firstByte)), "
                + "or is not on the curve); RFC 8291 §4 requires the application server's public key there"
        case .keyIDIsSubscriptionKey:
            "the header's keyid is the subscription's own public key (p256dh); RFC 8291 §4 requires the application "
                + "server's ephemeral public key there"
        case .recordTooShort(let length):
            length == 0
                ? "the body ends right after its header: there is no encrypted record"
                : "the encrypted record is \(length) bytes; an aes128gcm record holds at least 17 "
                    + "(the 16-byte authentication tag and the padding delimiter), so the body was cut short"
        case .recordSizeSmallerThanRecord(let recordSize, let recordLength):
            "the header's record size (rs) is \(recordSize) but the message's one record is \(recordLength) bytes; "
                + "RFC 8291 §4 requires rs to be larger than the record (send rs 4096)"
        case .multipleRecords(let recordSize, let count):
            "the body holds \(count) records of rs \(recordSize) bytes; RFC 8291 §4 requires a push message "
                + "to be one record (set rs larger than the record, such as 4096)"
        case .authenticationFailed:
            "decryption failed: the message was not encrypted for this subscription's keys (p256dh/auth), "
                + "or was altered"
        case .noPaddingDelimiter(let lastByte):
            lastByte.map {
                "the decrypted record does not end with the padding delimiter 0x02 followed by zeros "
                    + "(its last non-zero byte is \(Self.hex($0))); RFC 8188 §2 requires it after the plaintext"
            } ?? "the decrypted record holds only zero bytes: it has no padding delimiter 0x02 (RFC 8188 §2)"
        case .notLastRecordDelimiter:
            "the decrypted record ends with the padding delimiter 0x01, which marks a record that is not the last; "
                + "a push message's only record ends with 0x02 (RFC 8188 §2, RFC 8291 §4)"
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }
}
