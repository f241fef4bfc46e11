import Crypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decrypts a Web Push message body as the subscribed browser would: the `aes128gcm` content
/// coding of RFC 8188, keyed as RFC 8291 §3.3–3.4 says, with RFC 8291 §4's restrictions (one
/// record, the application server's key as `keyid`). Pure: bytes and keys in, plaintext or a
/// `WebPushDecryptionProblem` out.
///
/// What it checks, in order: the header's first 21 bytes are there; `rs` is at least 18;
/// `idlen` is 65; the whole header is there; `keyid` is an uncompressed P-256 point and not the
/// subscription's own key; a record follows (17 bytes or more); the body is one record of at
/// most `rs` bytes (when it is longer, the first `rs` bytes are tried as a record of their own,
/// to tell several records from one record under too small an `rs`); AES-GCM authentication;
/// the padding (the plaintext, then 0x02, then only zeros).
///
/// A record exactly `rs` bytes long is accepted: RFC 8291 §4 asks for an `rs` *greater* than
/// the record, but Chromium and `http_ece` accept equality, so a browser would show the message
/// (mock's choice).
public enum WebPushPayloadDecryption {
    /// The length of the salt that starts the header.
    public static let saltLength = 16
    /// The length of the header before `keyid`: salt, `rs` (4 bytes) and `idlen` (1 byte).
    public static let fixedHeaderLength = 21
    /// The only `keyid` length RFC 8291 §4 allows: an uncompressed P-256 point.
    public static let keyIDLength = 65
    /// The smallest valid record size (RFC 8188 §2.1).
    public static let minimumRecordSize: UInt32 = 18
    /// The length of AES-GCM's authentication tag at the end of a record.
    public static let tagLength = 16

    /// The plaintext of `body`, decrypted with `keys`, or why it could not be.
    public static func decrypt<Body: Collection<UInt8>>(_ body: Body, with keys: WebPushSubscriptionKeys)
        -> Result<[UInt8], WebPushDecryptionProblem>
    {
        let bytes = Array(body)
        guard bytes.count >= fixedHeaderLength else {
            return .failure(.bodyShorterThanHeader(bodyLength: bytes.count, headerLength: fixedHeaderLength))
        }
        let salt = Array(bytes[0..<saltLength])
        let recordSize = bytes[16..<20].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let idLength = Int(bytes[20])
        guard recordSize >= minimumRecordSize else { return .failure(.recordSizeBelowMinimum(recordSize: recordSize)) }
        guard idLength == keyIDLength else { return .failure(.keyIDLength(idLength)) }
        let headerLength = fixedHeaderLength + idLength
        guard bytes.count >= headerLength else {
            return .failure(.bodyShorterThanHeader(bodyLength: bytes.count, headerLength: headerLength))
        }
        let keyID = Array(bytes[fixedHeaderLength..<headerLength])
        guard keyID[0] == 0x04, let senderKey = try? P256.KeyAgreement.PublicKey(x963Representation: keyID) else {
            return .failure(.keyIDNotUncompressedPoint(firstByte: keyID[0]))
        }
        let receiverPublicKey = keys.publicKeyBytes
        guard keyID != receiverPublicKey else { return .failure(.keyIDIsSubscriptionKey) }
        let ciphertext = bytes[headerLength...]
        guard ciphertext.count >= tagLength + 1 else { return .failure(.recordTooShort(length: ciphertext.count)) }
        guard let sharedSecret = try? keys.privateKey.sharedSecretFromKeyAgreement(with: senderKey) else {
            return .failure(.keyIDNotUncompressedPoint(firstByte: keyID[0]))
        }
        let contentKeys = ContentKeys(
            ecdhSecret: sharedSecret.withUnsafeBytes { Array($0) }, authSecret: keys.authSecret,
            receiverPublicKey: receiverPublicKey, senderPublicKey: keyID, salt: salt)

        if ciphertext.count > Int(recordSize) {
            // Several records, or one record under too small an rs: the first rs bytes tell.
            let recordCount = (ciphertext.count + Int(recordSize) - 1) / Int(recordSize)
            if contentKeys.open(ciphertext.prefix(Int(recordSize))) != nil {
                return .failure(.multipleRecords(recordSize: recordSize, count: recordCount))
            }
            if contentKeys.open(ciphertext) != nil {
                return .failure(.recordSizeSmallerThanRecord(recordSize: recordSize, recordLength: ciphertext.count))
            }
            return .failure(.authenticationFailed)
        }
        guard let padded = contentKeys.open(ciphertext) else { return .failure(.authenticationFailed) }
        return removePadding(padded)
    }

    /// The plaintext before the padding (RFC 8188 §2: the delimiter 0x02 of a last record, then
    /// zeros), or the problem with the padding.
    static func removePadding(_ padded: [UInt8]) -> Result<[UInt8], WebPushDecryptionProblem> {
        guard let delimiterIndex = padded.lastIndex(where: { $0 != 0 }) else {
            return .failure(.noPaddingDelimiter(lastByte: nil))
        }
        switch padded[delimiterIndex] {
        case 0x02: return .success(Array(padded[..<delimiterIndex]))
        case 0x01: return .failure(.notLastRecordDelimiter)
        case let byte: return .failure(.noPaddingDelimiter(lastByte: byte))
        }
    }

    /// The content-encryption key and nonce of a message (RFC 8291 §3.3–3.4, RFC 8188 §2.2–2.3),
    /// each HKDF step written out as the RFCs give it (one HMAC-SHA-256 block each).
    struct ContentKeys {
        let contentEncryptionKey: SymmetricKey
        let nonce: [UInt8]

        init(
            ecdhSecret: [UInt8], authSecret: [UInt8], receiverPublicKey: [UInt8], senderPublicKey: [UInt8],
            salt: [UInt8]
        ) {
            // RFC 8291 §3.4: PRK_key = HMAC(auth_secret, ecdh_secret);
            // IKM = HMAC(PRK_key, "WebPush: info" || 0x00 || ua_public || as_public || 0x01).
            let keyPRK = Self.hmac(key: authSecret, ecdhSecret)
            let keyInfo = Array("WebPush: info".utf8) + [0x00] + receiverPublicKey + senderPublicKey
            let inputKeyingMaterial = Self.hmac(key: keyPRK, keyInfo + [0x01])
            // RFC 8188 §2.2–2.3: PRK = HMAC(salt, IKM); CEK and NONCE expand from it.
            let prk = Self.hmac(key: salt, inputKeyingMaterial)
            let cek = Self.hmac(key: prk, Array("Content-Encoding: aes128gcm".utf8) + [0x00, 0x01]).prefix(16)
            contentEncryptionKey = SymmetricKey(data: Array(cek))
            nonce = Array(Self.hmac(key: prk, Array("Content-Encoding: nonce".utf8) + [0x00, 0x01]).prefix(12))
        }

        /// The first record's plaintext with its padding (sequence number 0, so the nonce as
        /// derived), or `nil` when AES-GCM authentication fails.
        func open<Record: Collection<UInt8>>(_ record: Record) -> [UInt8]? {
            let bytes = Array(record)
            guard bytes.count >= WebPushPayloadDecryption.tagLength,
                let gcmNonce = try? AES.GCM.Nonce(data: nonce),
                let box = try? AES.GCM.SealedBox(
                    nonce: gcmNonce, ciphertext: Array(bytes.dropLast(WebPushPayloadDecryption.tagLength)),
                    tag: Array(bytes.suffix(WebPushPayloadDecryption.tagLength))),
                let plaintext = try? AES.GCM.open(box, using: contentEncryptionKey)
            else { return nil }
            return Array(plaintext)
        }

        static func hmac(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
            Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
        }
    }
}
