import APNSMockCore
import Crypto
import Foundation

/// A device push under construction, field by field, so that a test can break exactly one
/// thing of the valid baseline and leave the rest alone.
///
/// The baseline is the valid request of the rule table: `POST /3/device/<64 hex>`, topic
/// `com.example.app`, push type `alert`, priority 10, expiration 0, a canonical `apns-id`, a
/// short collapse id, a provider token, and the payload `{"aps":{"alert":"hi"}}`.
struct RequestBuilder: Sendable {
    /// A classic 32-byte token, lower case.
    static let validToken = String(repeating: "0123456789abcdef", count: 4)
    static let validMessageID = "123E4567-E89B-42D3-A456-426614174000"
    static let baselinePayload = Array(#"{"aps":{"alert":"hi"}}"#.utf8)

    var method = "POST"
    /// Everything before the token in `:path`.
    var pathPrefix = RequestRules.devicePathPrefix
    var token = RequestBuilder.validToken
    /// When set, the whole `:path`, ignoring `pathPrefix` and `token`.
    var pathOverride: String?

    /// The clock of every baseline request, epoch milliseconds.
    static let now: Int64 = 1_700_000_000_000
    static let keyID = "KEY1234567"
    static let teamID = "TEAM123456"
    /// The signing key of the baseline token (unregistered unless a test registers it).
    static var signingKey: P256.Signing.PrivateKey { try! P256.Signing.PrivateKey(rawRepresentation: signingKeyBytes) }
    private static let signingKeyBytes = P256.Signing.PrivateKey().rawRepresentation
    /// A correctly signed ES256 provider token issued a minute before `now`.
    static let validProviderToken = makeToken(issuedAt: now / 1000 - 60)

    /// A signed token with the given claims (key `signingKey` unless `key` is given).
    static func makeToken(
        keyID: String = keyID, teamID: String = teamID, issuedAt: Int64, key: P256.Signing.PrivateKey = signingKey,
        algorithm: String = "ES256"
    ) -> String {
        func encode(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        let input =
            encode(#"{"alg":"\#(algorithm)","kid":"\#(keyID)"}"#) + "."
            + encode(#"{"iss":"\#(teamID)","iat":\#(issuedAt)}"#)
        let signature = try! key.signature(for: Data(input.utf8)).rawRepresentation
        return input + "."
            + signature.base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The baseline key, registered: `ProviderKey` for `signingKey`.
    static func registeredKey(
        environment: EnvironmentScope = .both, topics: [String] = [], relatedKeyID: String? = nil
    ) -> ProviderKey {
        ProviderKey(
            keyID: keyID, teamID: teamID, publicKey: signingKey.publicKey, environment: environment, topics: topics,
            relatedKeyID: relatedKeyID)
    }

    var authorization: String? = "bearer " + RequestBuilder.validProviderToken
    var messageID: String? = RequestBuilder.validMessageID
    var pushType: String? = "alert"
    var topic: String? = "com.example.app"
    var priority: String? = "10"
    var expiration: String? = "0"
    var collapseID: String? = "game-42"
    /// Sent after the headers above, in this order.
    var extraHeaders: [HTTPHeaderField] = []

    var payload: [UInt8] = RequestBuilder.baselinePayload
    /// The number of body bytes received, when it differs from `payload.count`.
    var payloadSize: Int?
    /// Whether the whole body had arrived (false: answered before its end).
    var payloadComplete = true
    var headerListTooLarge = false

    var strictPayload = false
    /// `--payload-limit`.
    var payloadLimit: Int?
    var strictRegistry = false
    var authentication = AuthenticationMode.token
    var authState = ConnectionAuthState()
    var registry = RegistrySnapshot()
    var now = RequestBuilder.now
    var environment = APNSEnvironment.sandbox

    var path: String { pathOverride ?? pathPrefix + token }

    var headers: [HTTPHeaderField] {
        var fields: [HTTPHeaderField] = []
        func add(_ name: String, _ value: String?) {
            if let value { fields.append(HTTPHeaderField(name: name, value: value)) }
        }
        add("authorization", authorization)
        add("apns-id", messageID)
        add("apns-push-type", pushType)
        add("apns-topic", topic)
        add("apns-priority", priority)
        add("apns-expiration", expiration)
        add("apns-collapse-id", collapseID)
        return fields + extraHeaders
    }

    var request: APNSRequest {
        var request = APNSRequest(
            method: method, path: path, authority: "api.sandbox.push.apple.com", headers: headers,
            payload: payload, payloadSize: payloadSize, headerListTooLarge: headerListTooLarge)
        request.payloadComplete = payloadComplete
        return request
    }

    var rules: RequestRules {
        RequestRules(
            policy: ValidationPolicy(
                strictPayload: strictPayload, strictRegistry: strictRegistry,
                payloadAnalysis: PayloadAnalysisOptions(payloadLimit: payloadLimit)))
    }

    var context: ConnectionContext {
        ConnectionContext(
            environment: environment, authentication: authentication, authState: authState, registry: registry,
            now: now)
    }

    /// A trusted single-topic certificate for `com.example.app`, valid in both environments.
    static let singleTopicCertificate = AuthenticationMode.certificate(
        CertificateIdentity(
            subject: "UID=com.example.app", topics: ["com.example.app"], bundleID: "com.example.app",
            environment: .both))

    func evaluate() -> APNSVerdict { rules.evaluate(request, context: context) }

    /// A copy with `change` applied.
    func with(_ change: (inout RequestBuilder) -> Void) -> RequestBuilder {
        var copy = self
        change(&copy)
        return copy
    }

    /// A JSON object payload of exactly `size` bytes: `{"aps":{"alert":"xxx…"}}`.
    static func jsonPayload(size: Int) -> [UInt8] {
        let prefix = Array(#"{"aps":{"alert":""#.utf8)
        let suffix = Array(#""}}"#.utf8)
        precondition(size >= prefix.count + suffix.count)
        return prefix + Array(repeating: UInt8(ascii: "x"), count: size - prefix.count - suffix.count) + suffix
    }

    /// `count` hex digits, upper or lower case.
    static func hexToken(digits count: Int, upperCase: Bool = false) -> String {
        let alphabet = Array(upperCase ? "0123456789ABCDEF" : "0123456789abcdef")
        return String((0..<count).map { alphabet[($0 * 7 + 3) % 16] })
    }
}
