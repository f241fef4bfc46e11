import APNSMockCore
import Crypto
import Foundation
import HashTreeCollections
import Testing

/// Provider authentication with tokens and certificates ("Establishing a token-based connection
/// to APNs", "Establishing a certificate-based connection to APNs"), with an injected clock.
@Suite struct AuthenticationRulesTests {
    typealias B = RequestBuilder
    static var otherKey: P256.Signing.PrivateKey { try! P256.Signing.PrivateKey(rawRepresentation: otherKeyBytes) }
    private static let otherKeyBytes = P256.Signing.PrivateKey().rawRepresentation

    func verdict(_ change: (inout RequestBuilder) -> Void) -> APNSVerdict {
        RequestBuilder().with(change).evaluate()
    }

    @Test func missingAuthorizationIsMissingProviderToken() {
        let result = verdict { $0.authorization = nil }
        #expect(result.status == 403 && result.reason == .missingProviderToken)
        #expect(result.failedCheck == .authentication)
    }

    @Test(arguments: [
        "bearer", "Basic abc", "bearer not-a-jwt", "bearer a.b", "bearer e30.e30.c2ln",
        "bearer \(B.makeToken(issuedAt: B.now / 1000, algorithm: "HS256"))",
    ])
    func malformedTokensAreInvalid(_ authorization: String) {
        let result = verdict { $0.authorization = authorization }
        #expect(result.reason == .invalidProviderToken, "\(authorization)")
        #expect(result.status == 403)
    }

    @Test func bearerSchemeIsCaseInsensitive() {
        #expect(verdict { $0.authorization = "Bearer " + B.validProviderToken }.isAccepted)
    }

    @Test func unknownKeyIsAcceptedUnverifiedInOpenModeAndRejectedWhenStrict() {
        let open = verdict { _ in }
        #expect(open.isAccepted)
        #expect(open.authentication?.keyUnknown == true)
        #expect(open.authentication?.signatureVerified == false)
        #expect(open.authentication?.teamID == B.teamID)
        let strict = verdict { $0.strictRegistry = true }
        #expect(strict.reason == .invalidProviderToken)
    }

    @Test func registeredKeyVerifiesTheSignature() {
        let ok = verdict { $0.registry.keys[B.keyID] = B.registeredKey() }
        #expect(ok.isAccepted)
        #expect(ok.authentication?.signatureVerified == true)
        let forged = verdict {
            $0.registry.keys[B.keyID] = B.registeredKey()
            $0.authorization = "bearer " + B.makeToken(issuedAt: B.now / 1000, key: Self.otherKey)
        }
        #expect(forged.reason == .invalidProviderToken)
        let wrongTeam = verdict {
            $0.registry.keys[B.keyID] = B.registeredKey()
            $0.authorization = "bearer " + B.makeToken(teamID: "OTHERTEAM1", issuedAt: B.now / 1000)
        }
        #expect(wrongTeam.reason == .invalidProviderToken)
    }

    @Test func derSignaturesAndLenientClaimsAreAccepted() throws {
        func encode(_ data: Data) -> String {
            data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        let iat = B.now / 1000 - 10
        for claims in [
            #"{"iss":"\#(B.teamID)","iat":\#(iat).5}"#, #"{"iss":"\#(B.teamID)","iat":"\#(iat)"}"#,
            "{\n  \"iss\" : \"\(B.teamID)\",\n  \"iat\" : \(iat), \"extra\": true\n}",
        ] {
            let input =
                encode(Data(#"{"alg":"ES256","kid":"\#(B.keyID)","typ":"JWT"}"#.utf8)) + "." + encode(Data(claims.utf8))
            let der = try B.signingKey.signature(for: Data(input.utf8)).derRepresentation
            let result = verdict {
                $0.registry.keys[B.keyID] = B.registeredKey()
                $0.authorization = "bearer \(input).\(encode(der))"
            }
            #expect(result.isAccepted, "\(claims)")
            #expect(result.authentication?.signatureVerified == true)
        }
    }

    @Test func tokenAgeRules() {
        let nowSeconds = B.now / 1000
        let expired = verdict { $0.authorization = "bearer " + B.makeToken(issuedAt: nowSeconds - 3601) }
        #expect(expired.status == 403 && expired.reason == .expiredProviderToken)
        let justInTime = verdict { $0.authorization = "bearer " + B.makeToken(issuedAt: nowSeconds - 3600) }
        #expect(justInTime.isAccepted)
        let future = verdict { $0.authorization = "bearer " + B.makeToken(issuedAt: nowSeconds + 120) }
        #expect(future.reason == .invalidProviderToken)
        let smallSkew = verdict { $0.authorization = "bearer " + B.makeToken(issuedAt: nowSeconds + 30) }
        #expect(smallSkew.isAccepted)
    }

    @Test func cachedTokensSkipOnlyTheSignature() {
        let token = B.makeToken(issuedAt: B.now / 1000 - 10)
        let first = verdict { $0.authorization = "bearer " + token }
        let cacheEntry = try! #require(first.newToken)
        #expect(cacheEntry.token == token)
        // A cached token is not parsed again (a garbage cache entry proves it)…
        var builder = RequestBuilder()
        builder.authorization = "bearer " + token
        builder.registry.tokens[token] = cacheEntry.details
        #expect(builder.evaluate().newToken == nil)
        #expect(builder.evaluate().isAccepted)
        // …but expiry still applies.
        builder.now += 3700 * 1000
        #expect(builder.evaluate().reason == .expiredProviderToken)
    }

    @Test func wrongEnvironmentKey() {
        let result = verdict { $0.registry.keys[B.keyID] = B.registeredKey(environment: .production) }
        #expect(result.status == 403 && result.reason == .badEnvironmentKeyIdInToken)
        var builder = RequestBuilder()
        builder.registry.keys[B.keyID] = B.registeredKey(environment: .production)
        let spelled = RequestRules(policy: ValidationPolicy(environmentKeyReason: .badEnvironmentKeyInToken))
            .evaluate(builder.request, context: builder.context)
        #expect(spelled.reason == .badEnvironmentKeyInToken && spelled.status == 403)
    }

    @Test func topicSpecificKeyLimitsTopics() {
        let inside = verdict { $0.registry.keys[B.keyID] = B.registeredKey(topics: ["com.example.app"]) }
        #expect(inside.isAccepted)
        let outside = verdict { $0.registry.keys[B.keyID] = B.registeredKey(topics: ["com.example.other"]) }
        #expect(outside.status == 400 && outside.reason == .topicDisallowed)
    }

    // MARK: connection state

    /// Runs pushes on one connection, carrying the auth state forward like the transport does.
    struct Connection {
        var builder = RequestBuilder()
        mutating func push(_ change: (inout RequestBuilder) -> Void = { _ in }) -> APNSVerdict {
            var request = builder
            change(&request)
            let result = request.evaluate()
            if let next = result.nextAuthState { builder.authState = next }
            if let token = result.newToken { builder.registry.tokens[token.token] = token.details }
            return result
        }
    }

    @Test func connectionBindsToTheFirstTeam() {
        var connection = Connection()
        #expect(connection.push().isAccepted)
        #expect(connection.builder.authState.boundTeamID == B.teamID)
        let otherTeam = connection.push {
            $0.authorization = "bearer " + B.makeToken(teamID: "OTHERTEAM1", issuedAt: B.now / 1000)
        }
        #expect(otherTeam.reason == .invalidProviderToken)
    }

    @Test func newTokenWithinTwentyMinutesIsTooManyUpdates() {
        var connection = Connection()
        #expect(connection.push().isAccepted)
        let newToken = "bearer " + B.makeToken(issuedAt: B.now / 1000)
        connection.builder.now += 19 * 60 * 1000
        let early = connection.push { $0.authorization = newToken }
        #expect(early.status == 429 && early.reason == .tooManyProviderTokenUpdates)
        #expect(connection.push().isAccepted, "the current token keeps working")
        connection.builder.now += 61 * 1000
        #expect(connection.push { $0.authorization = newToken }.isAccepted)
        #expect(connection.builder.authState.currentToken == String(newToken.dropFirst(7)))
    }

    @Test func keyAndTeamRulesComeBeforeTheTwentyMinuteRule() {
        var connection = Connection()
        #expect(connection.push().isAccepted)
        let result = connection.push {
            $0.authorization = "bearer " + B.makeToken(teamID: "OTHERTEAM1", issuedAt: B.now / 1000)
        }
        #expect(result.reason == .invalidProviderToken)
    }

    @Test func unrelatedKeysAfterATeamScopedKey() {
        let topicKey = ProviderKey(
            keyID: "TOPICKEY01", teamID: B.teamID, publicKey: Self.otherKey.publicKey, topics: ["com.example.app"])
        let sameTeamKey = ProviderKey(keyID: "TEAMKEY002", teamID: B.teamID, publicKey: Self.otherKey.publicKey)
        let productionKey = ProviderKey(
            keyID: "PRODKEY003", teamID: B.teamID, publicKey: Self.otherKey.publicKey, environment: .production)
        var connection = Connection()
        for key in [B.registeredKey(), topicKey, sameTeamKey, productionKey] {
            connection.builder.registry.keys[key.keyID] = key
        }
        #expect(connection.push().isAccepted)
        connection.builder.now += 21 * 60 * 1000
        let issuedAt = connection.builder.now / 1000
        func token(_ keyID: String) -> String {
            "bearer " + B.makeToken(keyID: keyID, issuedAt: issuedAt, key: Self.otherKey)
        }
        let topicToken = token("TOPICKEY01")
        let productionToken = token("PRODKEY003")
        let teamToken = token("TEAMKEY002")
        #expect(connection.push { $0.authorization = topicToken }.reason == .unrelatedKeyIdInToken)
        #expect(connection.push { $0.authorization = productionToken }.reason == .unrelatedKeyIdInToken)
        #expect(connection.push { $0.authorization = teamToken }.isAccepted)
    }

    @Test func afterATopicSpecificKeyOnlyItAndItsRelatedKey() {
        let first = B.registeredKey(topics: ["com.example.app"], relatedKeyID: "RELATED001")
        let related = ProviderKey(
            keyID: "RELATED001", teamID: B.teamID, publicKey: Self.otherKey.publicKey, topics: ["com.example.app"])
        let stranger = ProviderKey(keyID: "STRANGER01", teamID: B.teamID, publicKey: Self.otherKey.publicKey)
        var connection = Connection()
        for key in [first, related, stranger] { connection.builder.registry.keys[key.keyID] = key }
        #expect(connection.push().isAccepted)
        connection.builder.now += 21 * 60 * 1000
        let issuedAt = connection.builder.now / 1000
        let strangerToken = "bearer " + B.makeToken(keyID: "STRANGER01", issuedAt: issuedAt, key: Self.otherKey)
        let relatedToken = "bearer " + B.makeToken(keyID: "RELATED001", issuedAt: issuedAt, key: Self.otherKey)
        #expect(connection.push { $0.authorization = strangerToken }.reason == .unrelatedKeyIdInToken)
        #expect(connection.push { $0.authorization = relatedToken }.isAccepted)
    }

    @Test func aFreshConnectionTakesAnyValidKey() {
        let productionKey = ProviderKey(
            keyID: "PRODKEY003", teamID: B.teamID, publicKey: Self.otherKey.publicKey, environment: .production)
        let result = verdict {
            $0.registry.keys[productionKey.keyID] = productionKey
            $0.environment = .production
            $0.authorization = "bearer " + B.makeToken(keyID: "PRODKEY003", issuedAt: B.now / 1000, key: Self.otherKey)
        }
        #expect(result.isAccepted)
    }

    // MARK: certificates

    static func certificate(
        topics: [String] = ["com.example.app"], environment: EnvironmentScope = .sandbox, error: String? = nil
    ) -> AuthenticationMode {
        .certificate(
            CertificateIdentity(
                subject: "UID=com.example.app", topics: topics, bundleID: "com.example.app", environment: environment,
                verificationError: error))
    }

    @Test func certificateConnectionsIgnoreAuthorization() {
        let result = verdict {
            $0.authentication = Self.certificate()
            $0.authorization = "garbage"
        }
        #expect(result.isAccepted)
        #expect(result.authentication?.method == .certificate)
    }

    @Test func untrustedCertificateIsBadCertificate() {
        let result = verdict { $0.authentication = Self.certificate(error: "unable to get local issuer certificate") }
        #expect(result.status == 403 && result.reason == .badCertificate)
    }

    @Test func certificateOfTheOtherEnvironmentEndsTheConnection() {
        let result = verdict { $0.authentication = Self.certificate(environment: .production) }
        #expect(result.reason == .badCertificateEnvironment)
        #expect(result.goAway)
    }

    @Test func certificateTopics() {
        let multi = Self.certificate(
            topics: ["com.example.app", "com.example.app.voip", "com.example.app.complication"], environment: .both)
        #expect(
            verdict {
                $0.authentication = Self.certificate()
                $0.topic = nil
            }.topic == "com.example.app")
        #expect(
            verdict {
                $0.authentication = multi
                $0.topic = nil
            }.reason == .missingTopic)
        #expect(
            verdict {
                $0.authentication = multi
                $0.topic = "com.example.other"
            }.reason == .badTopic)
        let voip = verdict {
            $0.authentication = multi
            $0.topic = "com.example.app.voip"
            $0.pushType = "voip"
        }
        #expect(voip.isAccepted)
        let location = verdict {
            $0.authentication = multi
            $0.pushType = "location"
            $0.topic = "com.example.app.location-query"
        }
        #expect(location.status == 400 && location.reason == .topicDisallowed)
    }

    // MARK: devices

    @Test func deviceRegistry() {
        let token = B.validToken
        func with(_ device: DeviceRegistration) -> APNSVerdict {
            verdict { $0.registry.devices[token] = device }
        }
        #expect(with(DeviceRegistration(token: token, topic: "com.example.app", environment: .sandbox)).isAccepted)
        #expect(with(DeviceRegistration(token: token, environment: .production)).reason == .badDeviceToken)
        #expect(with(DeviceRegistration(token: token, topic: "com.example.other")).reason == .deviceTokenNotForTopic)
        let gone = with(DeviceRegistration(token: token, state: .unregistered(at: 1_600_000_000_000)))
        #expect(gone.status == 410 && gone.reason == .unregistered && gone.timestamp == 1_600_000_000_000)
        let expired = with(DeviceRegistration(token: token, state: .expired(at: 1_650_000_000_000)))
        #expect(expired.status == 410 && expired.reason == .expiredToken && expired.timestamp == 1_650_000_000_000)
        #expect(
            verdict {
                $0.strictRegistry = true
                $0.registry.keys[B.keyID] = B.registeredKey()
            }.reason == .badDeviceToken)
    }
}
