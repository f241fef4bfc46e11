import APNSMockCore
import Crypto
import Testing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

@Suite("WebPushSubscriptionKeys: a browser's p256dh and auth, kept so the mock can decrypt")
struct WebPushSubscriptionKeysTests {
    @Test("Generated keys: p256dh is a 65-byte uncompressed point, auth 16 bytes, both base64url without padding")
    func generated() throws {
        let keys = WebPushSubscriptionKeys.generate()
        let p256dh = try #require(Base64URL.decode(keys.p256dh))
        #expect(p256dh.count == 65 && p256dh.first == 0x04)
        #expect(p256dh == keys.publicKeyBytes)
        #expect(try P256.KeyAgreement.PublicKey(x963Representation: p256dh).x963Representation.count == 65)
        #expect(try #require(Base64URL.decode(keys.auth)) == keys.authSecret)
        #expect(keys.authSecret.count == 16)
        for text in [keys.p256dh, keys.auth] {
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
        }
        #expect(keys.p256dh.count == 87 && keys.auth.count == 22)
    }

    @Test("Two generated keys differ in both halves")
    func generatedKeysDiffer() {
        let first = WebPushSubscriptionKeys.generate()
        let second = WebPushSubscriptionKeys.generate()
        #expect(first.rawPrivateKey != second.rawPrivateKey)
        #expect(first.authSecret != second.authSecret)
        #expect(first != second)
    }

    @Test("Stored raw bytes give back the same keys")
    func rawRoundTrip() throws {
        let keys = WebPushSubscriptionKeys.generate()
        #expect(keys.rawPrivateKey.count == 32)
        let restored = try #require(
            WebPushSubscriptionKeys(rawPrivateKey: keys.rawPrivateKey, authSecret: keys.authSecret))
        #expect(restored == keys)
        #expect(restored.p256dh == keys.p256dh && restored.auth == keys.auth)
    }

    @Test("RFC 8291 Appendix A: the user agent's private key gives the example's public key")
    func rfcKeys() {
        #expect(RFC8291Example.keys.p256dh == RFC8291Example.userAgentPublicKey)
        #expect(RFC8291Example.keys.auth == RFC8291Example.authSecret)
    }

    @Test("Raw bytes of the wrong length are refused")
    func wrongLengths() {
        let keys = WebPushSubscriptionKeys.generate()
        #expect(
            WebPushSubscriptionKeys(rawPrivateKey: keys.rawPrivateKey.dropLast(), authSecret: keys.authSecret) == nil)
        #expect(
            WebPushSubscriptionKeys(rawPrivateKey: keys.rawPrivateKey, authSecret: keys.authSecret.dropLast()) == nil)
        #expect(WebPushSubscriptionKeys(rawPrivateKey: keys.rawPrivateKey, authSecret: keys.authSecret + [0]) == nil)
        #expect(WebPushSubscriptionKeys(privateKey: keys.privateKey, authSecret: []) == nil)
    }
}

@Suite("Base64URL: RFC 4648 §5 without padding")
struct Base64URLTests {
    @Test("Encoding uses - and _ and drops the padding")
    func encode() {
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.encode([UInt8]()) == "")
        #expect(Base64URL.encode(Array("hi".utf8)) == "aGk")
    }

    @Test("Decoding takes padding or none, and refuses standard base64's + and /, spaces and empty text")
    func decode() {
        #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
        #expect(Base64URL.decode("-_8=") == [0xFB, 0xFF])
        #expect(Base64URL.decode("aGk") == Array("hi".utf8))
        #expect(Base64URL.decode("+/8") == nil)
        #expect(Base64URL.decode("aG k") == nil)
        #expect(Base64URL.decode("") == nil)
        #expect(Base64URL.decode("a") == nil)
        #expect(Base64URL.decode("aGk===") == nil)
    }
}
