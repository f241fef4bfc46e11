import APNSMockCore
import Crypto
import Testing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One row: a change to a valid VAPID credential and Apple's answer (`nil`: accepted).
struct VAPIDCase: Sendable, CustomTestStringConvertible {
    let name: String
    let reason: APNSReason?
    let change: @Sendable (inout VAPIDBuilder) -> Void

    var testDescription: String { name }

    static func accepted(_ name: String, _ change: @escaping @Sendable (inout VAPIDBuilder) -> Void) -> VAPIDCase {
        VAPIDCase(name: name, reason: nil, change: change)
    }

    static func rejected(
        _ name: String, _ reason: APNSReason, _ change: @escaping @Sendable (inout VAPIDBuilder) -> Void
    ) -> VAPIDCase {
        VAPIDCase(name: name, reason: reason, change: change)
    }
}

/// `VAPIDVerifier` against RFC 8292 and the reasons of Apple's "Sending web push notifications in
/// web apps and browsers" (all four are 403, "an error with your authentication").
@Suite("VAPIDVerifier: RFC 8292 credentials, one defect per row")
struct VAPIDVerifierTests {
    @Test("The valid baseline verifies and gives its claims and key")
    func baseline() throws {
        // One token, sent as is: an ES256 signature differs each time it is made.
        let builder = VAPIDBuilder()
        let token = builder.token
        let key = Base64URL.encode(builder.subscriptionKey)
        let claims = try builder.with { $0.authorization = "vapid t=\(token), k=\(key)" }.verify().get()
        #expect(claims.subject == "mailto:push@example.com")
        #expect(claims.audience == VAPIDBuilder.audience)
        #expect(claims.expiration == VAPIDBuilder.nowSeconds + 12 * 3600)
        #expect(claims.publicKey == builder.subscriptionKey)
        #expect(claims.publicKeyBase64URL == key)
        #expect(claims.token == token)
    }

    static let rows: [VAPIDCase] = [
        // The header's form (RFC 8292 §3; Apple: BadAuthorizationHeader "doesn't conform").
        .accepted("Parameters in the other order: k=…, t=…") { $0.format = { "vapid k=\($1), t=\($0)" } },
        .accepted("No space after the comma, spaces around '='") { $0.format = { "vapid t = \($0),k = \($1)" } },
        .accepted("The scheme in capitals, parameter names in capitals") { $0.format = { "VAPID T=\($0), K=\($1)" } },
        .accepted("Quoted values") { $0.format = { "vapid t=\"\($0)\", k=\"\($1)\"" } },
        .accepted("An extra parameter and a stray comma are ignored") {
            $0.format = { "vapid t=\($0), , x=1, k=\($1)," }
        },
        .accepted("k with base64 padding") {
            $0.format = { "vapid t=\($0), k=\($1)=" }
        },
        .rejected("No Authorization header → BadAuthorizationHeader (mock's choice)", .badAuthorizationHeader) {
            $0.authorization = .some(nil)
        },
        .rejected("An empty header → BadAuthorizationHeader", .badAuthorizationHeader) { $0.authorization = "" },
        .rejected("The draft 'WebPush <JWT>' scheme → BadAuthorizationHeader", .badAuthorizationHeader) {
            $0.format = { token, _ in "WebPush \(token)" }
        },
        .rejected("A bearer token, as for APNs → BadAuthorizationHeader", .badAuthorizationHeader) {
            $0.format = { token, _ in "bearer \(token)" }
        },
        .rejected("t given twice → BadAuthorizationHeader", .badAuthorizationHeader) {
            $0.format = { "vapid t=\($0), t=\($0), k=\($1)" }
        },
        .rejected("A parameter without '=' → BadAuthorizationHeader", .badAuthorizationHeader) {
            $0.format = { "vapid t=\($0), k \($1)" }
        },
        // Apple: BadJwtToken "the JWT is missing".
        .rejected("No t → BadJwtToken", .badJwtToken) { $0.format = { _, key in "vapid k=\(key)" } },
        .rejected("An empty t → BadJwtToken", .badJwtToken) { $0.format = { _, key in "vapid t=, k=\(key)" } },
        // Apple: BadVapidPublicKey "isn't present, isn't base64url encoded, or isn't the correct type of key".
        .rejected("No k → BadVapidPublicKey", .badVapidPublicKey) { $0.format = { token, _ in "vapid t=\(token)" } },
        .rejected("k in standard base64 (+ and /) → BadVapidPublicKey", .badVapidPublicKey) {
            $0.format = { "vapid t=\($0), k=\($1.replacing("-", with: "+").replacing("_", with: "/"))+/" }
        },
        .rejected("k of 64 bytes → BadVapidPublicKey", .badVapidPublicKey) {
            $0.publicKey = Base64URL.encode(
                Array(VAPIDBuilder.applicationServerKey.publicKey.x963Representation.dropLast()))
        },
        .rejected("k as a compressed point → BadVapidPublicKey", .badVapidPublicKey) {
            $0.publicKey = Base64URL.encode(Array(VAPIDBuilder.applicationServerKey.publicKey.compressedRepresentation))
        },
        .rejected("k off the curve → BadVapidPublicKey", .badVapidPublicKey) {
            var bytes = Array(VAPIDBuilder.applicationServerKey.publicKey.x963Representation)
            bytes[64] ^= 1
            $0.publicKey = Base64URL.encode(bytes)
        },
        // Apple: VapidPkHashMismatch, k is not the subscription's applicationServerKey.
        .rejected("A token signed and sent with a second VAPID key → VapidPkHashMismatch", .vapidPkHashMismatch) {
            $0.signer = VAPIDBuilder.otherKey
        },
        // Apple: BadJwtToken "signed with the wrong private key".
        .rejected("Signed by another key than k → BadJwtToken", .badJwtToken) {
            $0.signer = VAPIDBuilder.otherKey
            $0.publicKey = Base64URL.encode(Array(VAPIDBuilder.applicationServerKey.publicKey.x963Representation))
        },
        .rejected("A signature that does not verify → BadJwtToken", .badJwtToken) {
            $0.signaturePart = Base64URL.encode([UInt8](repeating: 1, count: 64))
        },
        .rejected("A DER signature (RFC 7518 §3.4 wants R||S) → BadJwtToken", .badJwtToken) { $0.derSignature = true },
        .rejected("A token of two parts → BadJwtToken", .badJwtToken) {
            $0.format = { token, key in
                "vapid t=\(token.split(separator: ".").prefix(2).joined(separator: ".")), k=\(key)"
            }
        },
        .rejected("alg HS256 → BadJwtToken", .badJwtToken) { $0.header = #"{"typ":"JWT","alg":"HS256"}"# },
        .rejected("No alg → BadJwtToken", .badJwtToken) { $0.header = #"{"typ":"JWT"}"# },
        .rejected("A header that is not JSON → BadJwtToken", .badJwtToken) { $0.header = "ES256" },
        .rejected("typ JOSE+JSON → BadJwtToken", .badJwtToken) { $0.header = #"{"typ":"JOSE+JSON","alg":"ES256"}"# },
        .accepted("No typ (RFC 7515 makes it optional)") { $0.header = #"{"alg":"ES256"}"# },
        .accepted("typ in lower case") { $0.header = #"{"alg":"ES256","typ":"jwt"}"# },
        // Apple: BadJwtToken "has an audience claim that isn't the origin of the push service".
        .rejected("aud of another push service → BadJwtToken", .badJwtToken) {
            $0.audience = .string("https://web.push.apple.com")
        },
        .rejected("aud with a trailing slash → BadJwtToken", .badJwtToken) {
            $0.audience = .string(VAPIDBuilder.audience + "/")
        },
        .rejected("No aud → BadJwtToken", .badJwtToken) { $0.audience = nil },
        // RFC 8292 §2: exp at most 24 hours ahead; Apple: "more than one day in the future" is BadJwtToken.
        .accepted("exp exactly 24 hours ahead") { $0.expiration = .integer(VAPIDBuilder.nowSeconds + 86400) },
        .accepted("exp one second ahead") { $0.expiration = .integer(VAPIDBuilder.nowSeconds + 1) },
        .accepted("exp as a float") {
            $0.expiration = .number(Double(VAPIDBuilder.nowSeconds) + 60.5, text: "\(VAPIDBuilder.nowSeconds + 60).5")
        },
        .rejected("exp 24 hours and 1 second ahead → BadJwtToken", .badJwtToken) {
            $0.expiration = .integer(VAPIDBuilder.nowSeconds + 86401)
        },
        .rejected("exp now → BadJwtToken (expired)", .badJwtToken) {
            $0.expiration = .integer(VAPIDBuilder.nowSeconds)
        },
        .rejected("exp an hour ago → BadJwtToken", .badJwtToken) {
            $0.expiration = .integer(VAPIDBuilder.nowSeconds - 3600)
        },
        .rejected("exp as a string → BadJwtToken", .badJwtToken) {
            $0.expiration = .string(String(VAPIDBuilder.nowSeconds + 60))
        },
        .rejected("No exp → BadJwtToken", .badJwtToken) { $0.expiration = nil },
        // RFC 8292 §2.1; Apple: BadJwtToken "has a subject claim that isn't a URL or mailto:".
        .accepted("sub an https: URL") { $0.subject = .string("https://example.com/contact") },
        .accepted("sub with MAILTO: in capitals") { $0.subject = .string("MAILTO:push@example.com") },
        .rejected("No sub → BadJwtToken", .badJwtToken) { $0.subject = nil },
        .rejected("sub a bare address → BadJwtToken", .badJwtToken) { $0.subject = .string("push@example.com") },
        .rejected("sub an http: URL → BadJwtToken", .badJwtToken) { $0.subject = .string("http://example.com") },
        .rejected("sub mailto:…@localhost → BadJwtToken (web-push-libs/web-push issue 947)", .badJwtToken) {
            $0.subject = .string("mailto:openclaw@localhost")
        },
        .rejected("sub 'mailto: <address>' → BadJwtToken (Apple Developer Forums 725473)", .badJwtToken) {
            $0.subject = .string("mailto: <push@example.com>")
        },
        .rejected("sub 'https://' without a host → BadJwtToken", .badJwtToken) { $0.subject = .string("https://") },
        .rejected("sub a number → BadJwtToken", .badJwtToken) { $0.subject = .integer(1) },
    ]

    @Test("One change per row", arguments: rows)
    func row(_ row: VAPIDCase) {
        let result = VAPIDBuilder().with(row.change).verify()
        switch (result, row.reason) {
        case (.success, nil): break
        case (.failure(let rejection), let reason?):
            #expect(rejection.reason == reason, "\(rejection.detail)")
            #expect(rejection.status == 403)
            #expect(!rejection.detail.isEmpty)
        case (.success, let reason?): Issue.record("accepted; expected \(reason)")
        case (.failure(let rejection), nil): Issue.record("refused \(rejection.reason): \(rejection.detail)")
        }
    }

    @Test("A claim given twice counts by its last value (RFC 7515 §5.2 lets a parser do so)")
    func repeatedClaim() throws {
        let builder = VAPIDBuilder().with {
            $0.subject = nil
            $0.header = #"{"alg":"none","alg":"ES256"}"#
        }
        // The header's repeated alg reads as ES256; the missing sub still fails, after the signature.
        let detail = try #require(builder.verify().failureDetail)
        #expect(detail.contains("'sub'"))
    }

    @Test("Details name what is wrong")
    func details() {
        let mismatch = VAPIDBuilder().with { $0.signer = VAPIDBuilder.otherKey }.verify().failureDetail ?? ""
        #expect(mismatch.contains("applicationServerKey"))
        let localhost = VAPIDBuilder().with { $0.subject = .string("mailto:a@localhost") }.verify().failureDetail ?? ""
        #expect(localhost.contains("localhost"))
        let draft = VAPIDBuilder().with { $0.format = { token, _ in "WebPush \(token)" } }.verify().failureDetail ?? ""
        #expect(draft.contains("draft"))
        let late = VAPIDBuilder().with { $0.expiration = .integer(VAPIDBuilder.nowSeconds + 90000) }.verify()
        #expect(late.failureDetail?.contains("24 hours") == true)
    }
}

extension Result where Failure == WebPushRejection {
    var failureDetail: String? {
        guard case .failure(let rejection) = self else { return nil }
        return rejection.detail
    }
}
