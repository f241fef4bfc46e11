import Crypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The keys a browser makes for one push subscription (RFC 8291 §2–3; W3C Push API's
/// `PushSubscription.getKey`): a P-256 key-agreement key pair, whose public half is the
/// subscription's `p256dh`, and a 16-byte authentication secret, its `auth`.
///
/// The mock keeps both halves, as a browser does, so it can decrypt what a provider sends
/// (`WebPushPayloadDecryption`). A store keeps `rawPrivateKey` and `authSecret` and rebuilds the
/// keys with `init(rawPrivateKey:authSecret:)`.
public struct WebPushSubscriptionKeys: Sendable, Hashable {
    /// The length of an authentication secret (RFC 8291 §3.2: "16 octets").
    public static let authSecretLength = 16

    /// The user agent's private key (`ua_private` in RFC 8291 §3.4) as its 32-byte scalar, for a
    /// store. Kept as bytes because swift-crypto's key types are not `Sendable`.
    public let rawPrivateKey: [UInt8]
    /// The public key as the 65-byte uncompressed point (`0x04 || X || Y`, X9.62 §4.3.6), the
    /// form RFC 8291 §3.1 and the Push API use (`ua_public`).
    public let publicKeyBytes: [UInt8]
    /// The authentication secret (`auth_secret`), `authSecretLength` bytes.
    public let authSecret: [UInt8]

    /// Whether `bytes` is a P-256 public key in X9.63 form (65 bytes: 0x04, x, y) on the curve.
    public static func isPublicKey(_ bytes: [UInt8]) -> Bool {
        bytes.count == 65 && bytes[0] == 4 && (try? P256.KeyAgreement.PublicKey(x963Representation: bytes)) != nil
    }

    /// New keys: a fresh P-256 key pair and a random authentication secret, as `subscribe()`
    /// makes them.

    public static func generate() -> WebPushSubscriptionKeys {
        var generator = SystemRandomNumberGenerator()
        let secret = (0..<authSecretLength).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return WebPushSubscriptionKeys(privateKey: P256.KeyAgreement.PrivateKey(), checkedAuthSecret: secret)
    }

    /// Keys from a private key and an authentication secret; `nil` when the secret is not
    /// `authSecretLength` bytes.
    public init?(privateKey: P256.KeyAgreement.PrivateKey, authSecret: [UInt8]) {
        guard authSecret.count == Self.authSecretLength else { return nil }
        self.init(privateKey: privateKey, checkedAuthSecret: authSecret)
    }

    /// Keys from the bytes `rawPrivateKey` and `authSecret` gave: `nil` when the private key is
    /// not a 32-byte P-256 scalar or the secret is not `authSecretLength` bytes.
    public init?<Key: Collection<UInt8>, Secret: Collection<UInt8>>(rawPrivateKey: Key, authSecret: Secret) {
        guard let key = try? P256.KeyAgreement.PrivateKey(rawRepresentation: Array(rawPrivateKey)) else {
            return nil
        }
        self.init(privateKey: key, authSecret: Array(authSecret))
    }

    private init(privateKey: P256.KeyAgreement.PrivateKey, checkedAuthSecret: [UInt8]) {
        self.rawPrivateKey = Array(privateKey.rawRepresentation)
        self.publicKeyBytes = Array(privateKey.publicKey.x963Representation)
        self.authSecret = checkedAuthSecret
    }

    /// The private key. Every initializer takes `rawPrivateKey` from a valid key, so reading it
    /// back cannot fail.
    public var privateKey: P256.KeyAgreement.PrivateKey {
        try! P256.KeyAgreement.PrivateKey(rawRepresentation: rawPrivateKey)
    }

    /// The subscription's `keys.p256dh`: `publicKeyBytes` as base64url without padding.
    public var p256dh: String { Base64URL.encode(publicKeyBytes) }

    /// The subscription's `keys.auth`: `authSecret` as base64url without padding.
    public var auth: String { Base64URL.encode(authSecret) }
}
