import APNSMockCore
import APNSMockRegistry
import Crypto
import Foundation

/// What the targets judge against: a fixed clock, a registered key, devices, a remembered
/// provider token and a broadcast channel, all deterministic (an input replays the same way).
enum FuzzFixtures {
    /// The clock of every target, epoch milliseconds.
    static let now: Int64 = 1_700_000_000_000
    static let keyID = "KEY1234567"
    static let teamID = "TEAM123456"
    static let topic = "com.example.app"
    /// A registered device of `topic` (sandbox), and one that was unregistered.
    static let deviceToken = String(repeating: "0123456789abcdef", count: 4)
    static let unregisteredToken = String(repeating: "fedcba9876543210", count: 4)
    static let channelID = "dGVzdC1jaGFubmVsLTAwMQ=="

    /// A provider token of `keyID` issued a minute before `now`, remembered by the registry as
    /// verified: inputs that carry it pass authentication without a signature check, and
    /// mutations of it go through the parser and the signature check.
    static let providerToken =
        "eyJhbGciOiJFUzI1NiIsImtpZCI6IktFWTEyMzQ1NjcifQ.eyJpc3MiOiJURUFNMTIzNDU2IiwiaWF0IjoxNjk5OTk5OTQwfQ"
        + ".bm90LWEtcmVhbC1zaWduYXR1cmU"

    /// The private half of the registered key: a fixed P-256 key, so that every run sees the
    /// same one and committed seeds carry tokens it verifies.
    static var signingKey: P256.Signing.PrivateKey {
        try! P256.Signing.PrivateKey(rawRepresentation: (1...32).map { UInt8($0) })
    }

    /// The origin of the Web Push endpoint: the `aud` a VAPID token must name.
    static let webPushOrigin = "https://127.0.0.1:2199"

    /// A Web Push subscription with RFC 8291 Appendix A's keys (published test values): its
    /// `applicationServerKey` is the example's application server key, and the example's message
    /// decrypts with its keys.
    static let webPushSubscription: WebPushSubscription = {
        func bytes(_ text: String) -> [UInt8] { Base64URL.decode(text)! }
        let keys = WebPushSubscriptionKeys(
            rawPrivateKey: bytes("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"),
            authSecret: bytes("BTBZMqHH6r4Tts7J_aSIgg"))!
        return WebPushSubscription(
            id: "fuzz-subscription",
            applicationServerKey: bytes(
                "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"),
            keys: keys, origin: "https://example.com")
    }()

    /// The registered key.
    static let key = ProviderKey(keyID: keyID, teamID: teamID, publicKey: signingKey.publicKey, environment: .both)

    /// A provider token of `keyID` issued a minute before `now`, signed by `signingKey` (for the
    /// server, which checks signatures of tokens it has not seen).
    static let signedProviderToken: String = {
        func encode(_ bytes: some DataProtocol) -> String {
            Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        let input =
            encode(Array(#"{"alg":"ES256","kid":"\#(keyID)"}"#.utf8)) + "."
            + encode(Array(#"{"iss":"\#(teamID)","iat":\#(now / 1000 - 60)}"#.utf8))
        let signature = try! signingKey.signature(for: Array(input.utf8)).rawRepresentation
        return input + "." + encode(signature)
    }()

    /// The registry's state: the key, two devices, the remembered token, one storing channel.
    static let registry: RegistrySnapshot = {
        let registry = Registry(
            keys: [key],
            devices: [
                DeviceRegistration(token: deviceToken, topic: topic, environment: .sandbox),
                DeviceRegistration(token: unregisteredToken, topic: topic, state: .unregistered(at: now - 60_000)),
            ],
            channels: [ChannelSpec(id: channelID, scope: ChannelScope(bundleID: topic, environment: .sandbox))],
            now: now)
        var snapshot = registry.snapshot()
        snapshot.tokens[providerToken] = CachedProviderToken(
            keyID: keyID, teamID: teamID, issuedAt: now / 1000 - 60, signatureVerified: true)
        return snapshot
    }()

    /// A connection that already accepted `providerToken`.
    static let establishedAuthState: ConnectionAuthState = {
        var state = ConnectionAuthState()
        state.boundTeamID = teamID
        state.firstKeyID = keyID
        state.currentToken = providerToken
        state.currentTokenAcceptedAt = now - 30_000
        state.currentTokenDetails = registry.tokens[providerToken]
        state.currentTokenKeyGeneration = registry.keyGeneration
        return state
    }()

    /// The package's root directory (the certificates of `certs/` are read from there).
    static let packageRoot: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Sources/APNSMockFuzzTargets/FuzzFixtures.swift
        return parts.joined(separator: "/")
    }()
}
