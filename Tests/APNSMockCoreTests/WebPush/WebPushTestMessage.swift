import APNSMockCore
import Crypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// RFC 8291 Appendix A: the example push message, its keys and its plaintext.
enum RFC8291Example {
    static let plaintext = "When I grow up, I want to be a watermelon"
    static let applicationServerPrivateKey = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
    static let applicationServerPublicKey =
        "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
    static let userAgentPrivateKey = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
    static let userAgentPublicKey =
        "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
    static let authSecret = "BTBZMqHH6r4Tts7J_aSIgg"
    static let salt = "DGv6ra1nlYgDCS1FRnbzlw"
    /// The whole body: an 86-byte header (salt, rs 4096, idlen 65, the server's key) and a 58-byte record.
    static let message =
        "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"

    static func bytes(_ base64URL: String) -> [UInt8] { Base64URL.decode(base64URL)! }

    /// The user agent's keys of the example.
    static var keys: WebPushSubscriptionKeys {
        WebPushSubscriptionKeys(rawPrivateKey: bytes(userAgentPrivateKey), authSecret: bytes(authSecret))!
    }

    static var body: [UInt8] { bytes(message) }
}

/// An `aes128gcm` push message built the way an application server builds one (RFC 8291 §3,
/// RFC 8188 §2), with knobs to build the wrong ones. The key schedule uses swift-crypto's `HKDF`,
/// not the mock's HMAC steps, so the two check each other.
struct WebPushTestMessage {
    var plaintext: [UInt8]
    var recordSize: UInt32 = 4096
    var salt: [UInt8] = (0..<16).map { _ in UInt8.random(in: 0...255) }
    var senderKey = P256.KeyAgreement.PrivateKey()
    /// The header's keyid; the sender's public key when `nil`.
    var keyID: [UInt8]?
    /// The last record's padding delimiter; `nil` leaves it out.
    var lastDelimiter: UInt8? = 0x02
    /// Zero bytes after the last record's delimiter.
    var paddingLength = 0
    /// How many records the plaintext is cut into (every record but the last filled to `recordSize`).
    var recordCount = 1

    init(_ plaintext: String) { self.plaintext = Array(plaintext.utf8) }

    /// The body, encrypted for a subscriber whose public key is `receiverPublicKey` (65 bytes)
    /// and whose authentication secret is `authSecret`.
    func encrypt(receiverPublicKey: [UInt8], authSecret: [UInt8]) -> [UInt8] {
        let receiver = try! P256.KeyAgreement.PublicKey(x963Representation: receiverPublicKey)
        let shared = try! senderKey.sharedSecretFromKeyAgreement(with: receiver)
        let senderPublicKey = Array(senderKey.publicKey.x963Representation)
        let keyInfo = Array("WebPush: info".utf8) + [0] + receiverPublicKey + senderPublicKey
        let ikm = shared.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: authSecret, sharedInfo: keyInfo, outputByteCount: 32)
        let cek = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Array("Content-Encoding: aes128gcm".utf8) + [0],
            outputByteCount: 16)
        let baseNonce = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Array("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12
        ).withUnsafeBytes { Array($0) }

        let keyID = self.keyID ?? senderPublicKey
        var body = salt
        body += withUnsafeBytes(of: recordSize.bigEndian) { Array($0) }
        body.append(UInt8(keyID.count))
        body += keyID
        let perRecord = Int(recordSize) - 16 - 1
        for index in 0..<recordCount {
            let isLast = index == recordCount - 1
            var record: [UInt8]
            if isLast {
                record = Array(plaintext.dropFirst(perRecord * index))
                if let lastDelimiter { record.append(lastDelimiter) }
                record += [UInt8](repeating: 0, count: paddingLength)
            } else {
                record = Array(plaintext.dropFirst(perRecord * index).prefix(perRecord))
                record.append(0x01)
                record += [UInt8](repeating: 0, count: perRecord + 1 - record.count)
            }
            var nonce = baseNonce
            for byte in 0..<8 { nonce[11 - byte] ^= UInt8(truncatingIfNeeded: UInt64(index) >> (8 * byte)) }
            let sealed = try! AES.GCM.seal(record, using: cek, nonce: AES.GCM.Nonce(data: nonce))
            body += Array(sealed.ciphertext) + Array(sealed.tag)
        }
        return body
    }

    /// The body, encrypted for `keys`.
    func encrypt(for keys: WebPushSubscriptionKeys) -> [UInt8] {
        encrypt(receiverPublicKey: keys.publicKeyBytes, authSecret: keys.authSecret)
    }
}
