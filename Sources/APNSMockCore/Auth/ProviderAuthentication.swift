/// Provider authentication, the same for every API on which APNs takes provider credentials:
/// device pushes, broadcasts and channel management ("Sending broadcast push notification
/// requests to APNs" and "Sending channel management requests to APNs" use the token or
/// certificate of device pushes; APNS-REFERENCE §4, §5, §6). Pure: the rules call it with the
/// request's facts, and it returns the reason of a failure.
enum ProviderAuthentication {
    /// Runs the authentication step: the certificate's trust and environment, or the provider
    /// token's structure, signature, age, team, key and topic rules and the connection's token
    /// history. Reads `facts.authorization` and `facts.topic` (the topic a topic-specific key
    /// must cover); fills `facts.authentication`, and `nextAuthState`, `newToken` and `goAway`
    /// when they change.
    static func authenticate(
        request: APNSRequest, context: ConnectionContext, policy: ValidationPolicy, facts: inout RequestFacts
    ) -> APNSReason? {
        switch context.authentication {
        case .certificate(let identity):
            facts.authentication = AuthenticationResult(
                method: .certificate, certificateSubject: identity.subject, certificateTopics: identity.topics)
            if let error = identity.verificationError {
                return facts.fail(.badCertificate, "the client certificate was not accepted: \(error)")
            }
            if !identity.environment.allows(context.environment) {
                facts.goAway = true
                return facts.fail(
                    .badCertificateEnvironment,
                    "the client certificate is for \(identity.environment.words); this connection is \(context.environment.rawValue)"
                )
            }
            return nil
        case .token:
            return authenticateToken(request: request, context: context, policy: policy, facts: &facts)
        }
    }

    private static func authenticateToken(
        request: APNSRequest, context: ConnectionContext, policy: ValidationPolicy, facts: inout RequestFacts
    ) -> APNSReason? {
        guard let authorization = facts.authorization else {
            guard policy.clientCertificatesRequested else {
                return facts.fail(
                    .missingProviderToken,
                    "no authorization header, and no client certificate: this server does not ask for one (it runs without a client CA: --client-ca or clientCA), so a certificate a client has is never sent; send 'authorization: bearer <JWT>', or start the server with a client CA"
                )
            }
            return facts.fail(
                .missingProviderToken,
                "no authorization header; a connection without a client certificate needs 'authorization: bearer <JWT>'"
            )
        }
        let block = request.headerBlock
        guard let bearer = block.withBytes(authorization, ProviderTokenParser.bearerTokenRange) else {
            return facts.fail(
                .invalidProviderToken,
                "the authorization header is not 'bearer <JWT>': \(RejectionWords.quoted(block.string(authorization), limit: 20))"
            )
        }
        let tokenRange = (authorization.lowerBound + bearer.lowerBound)..<(authorization.lowerBound + bearer.upperBound)
        // The connection's current token is compared as bytes: no string for the usual push.
        let token: String
        if var current = context.authState.currentToken,
            current.withUTF8({ currentBytes in block.withBytes(tokenRange) { ASCIIBytes.equal($0, currentBytes) } })
        {
            token = current
        } else {
            token = block.string(tokenRange)
        }
        let registry = context.registry
        let state = context.authState
        let details: CachedProviderToken
        if let current = state.currentTokenDetails, state.currentTokenKeyGeneration == registry.keyGeneration,
            state.currentToken == token
        {
            // The connection's own token (the normal case): no parse, no look-up.
            details = current
        } else if let cached = registry.tokens[token] {
            details = cached
        } else {
            guard let parsed = ProviderTokenParser.parse(token) else {
                return facts.fail(.invalidProviderToken, ProviderTokenParser.problem(with: token[...]))
            }
            guard parsed.algorithm == "ES256" else {
                return facts.fail(
                    .invalidProviderToken, "the provider token's alg is '\(parsed.algorithm)'; APNs accepts only ES256")
            }
            if let key = registry.keys[parsed.keyID] {
                guard parsed.teamID == key.teamID else {
                    return facts.fail(
                        .invalidProviderToken,
                        "the token's iss (team) is '\(parsed.teamID)', but key '\(parsed.keyID)' belongs to team '\(key.teamID)'"
                    )
                }
                guard parsed.isSigned(by: key) else {
                    return facts.fail(
                        .invalidProviderToken,
                        "the token's signature does not verify with the public key registered as '\(parsed.keyID)'")
                }
                details = CachedProviderToken(
                    keyID: parsed.keyID, teamID: parsed.teamID, issuedAt: parsed.issuedAt, signatureVerified: true)
            } else {
                details = CachedProviderToken(
                    keyID: parsed.keyID, teamID: parsed.teamID, issuedAt: parsed.issuedAt, signatureVerified: false)
            }
            facts.newToken = NewProviderToken(token: token, details: details)
        }
        let key = registry.keys[details.keyID]
        facts.authentication = AuthenticationResult(
            method: .token, teamID: details.teamID, keyID: details.keyID,
            signatureVerified: details.signatureVerified && key != nil, keyUnknown: key == nil)
        if key == nil && policy.strictRegistry {
            return facts.fail(
                .invalidProviderToken,
                "the token's kid '\(details.keyID)' is not a registered key (--strict-registry); the mock knows \(RejectionWords.list(registry.keys.keys.sorted()))"
            )
        }
        let nowSeconds = context.now / 1000
        if details.issuedAt > nowSeconds + policy.tokenClockSkewSeconds {
            return facts.fail(
                .invalidProviderToken,
                "the token's iat \(details.issuedAt) is \(details.issuedAt - nowSeconds) s in the future (the mock's clock reads \(nowSeconds); \(policy.tokenClockSkewSeconds) s of skew are allowed)"
            )
        }
        if nowSeconds - details.issuedAt > policy.tokenLifetimeSeconds {
            return facts.fail(
                .expiredProviderToken,
                "the token's iat \(details.issuedAt) is \(nowSeconds - details.issuedAt) s old; tokens older than \(policy.tokenLifetimeSeconds) s are expired"
            )
        }

        if let bound = state.boundTeamID, bound != details.teamID {
            return facts.fail(
                .invalidProviderToken,
                "this connection is bound to team '\(bound)' by its first accepted push; the token is team '\(details.teamID)'"
            )
        }
        if let firstKeyID = state.firstKeyID, firstKeyID != details.keyID {
            let firstKey = registry.keys[firstKeyID]
            if let firstKey, firstKey.isTopicSpecific {
                // After a topic-specific key: only it and its related key.
                let related = firstKey.relatedKeyID == details.keyID || key?.relatedKeyID == firstKeyID
                if !related {
                    return facts.fail(
                        .unrelatedKeyIdInToken,
                        "this connection started with topic-specific key '\(firstKeyID)'; key '\(details.keyID)' is not it or its related key"
                    )
                }
            } else {
                // After a team-scoped key: another team-scoped key of the same team and environment.
                if let key, key.isTopicSpecific {
                    return facts.fail(
                        .unrelatedKeyIdInToken,
                        "this connection started with team-scoped key '\(firstKeyID)'; key '\(details.keyID)' is topic-specific"
                    )
                }
                if let key, !key.environment.allows(context.environment) {
                    return facts.fail(
                        .unrelatedKeyIdInToken,
                        "this connection started with key '\(firstKeyID)'; key '\(details.keyID)' is for \(key.environment.words), not \(context.environment.rawValue)"
                    )
                }
            }
        }
        if let key, !key.environment.allows(context.environment) {
            return facts.fail(
                policy.environmentKeyReason,
                "key '\(details.keyID)' is for \(key.environment.words); this connection is \(context.environment.rawValue)"
            )
        }
        if let key, let topic = facts.topic, !topic.isEmpty, !key.covers(topic: topic) {
            return facts.fail(
                .topicDisallowed, "key '\(details.keyID)' is topic-specific and does not cover '\(topic)'")
        }
        if let current = state.currentToken, current != token, let acceptedAt = state.currentTokenAcceptedAt,
            context.now - acceptedAt < policy.tokenRefreshIntervalSeconds * 1000
        {
            return facts.fail(
                .tooManyProviderTokenUpdates,
                "a new provider token \((context.now - acceptedAt) / 1000) s after this connection's previous one; APNs allows one every \(policy.tokenRefreshIntervalSeconds / 60) minutes"
            )
        }
        if state.boundTeamID != nil, state.firstKeyID != nil, state.currentToken == token,
            state.currentTokenDetails == details, state.currentTokenKeyGeneration == registry.keyGeneration
        {
            return nil  // the connection's state stays as it is (the usual push)
        }
        var next = state
        next.boundTeamID = state.boundTeamID ?? details.teamID
        next.firstKeyID = state.firstKeyID ?? details.keyID
        if state.currentToken != token {
            next.currentToken = token
            next.currentTokenAcceptedAt = context.now
        }
        next.currentTokenDetails = details
        next.currentTokenKeyGeneration = registry.keyGeneration
        facts.nextAuthState = next
        return nil
    }

    /// A rejected request's record still says what its credentials were (team and key of a
    /// token, the certificate's subject) when the authentication step never ran.
    static func observeCredentials(request: APNSRequest, context: ConnectionContext, facts: inout RequestFacts) {
        guard facts.authentication == nil else { return }
        switch context.authentication {
        case .certificate(let identity):
            facts.authentication = AuthenticationResult(
                method: .certificate, certificateSubject: identity.subject, certificateTopics: identity.topics)
        case .token:
            guard let authorization = facts.authorization else { return }
            let block = request.headerBlock
            var result = AuthenticationResult(method: .token)
            if let bearer = block.withBytes(authorization, ProviderTokenParser.bearerTokenRange) {
                let range =
                    (authorization.lowerBound + bearer.lowerBound)..<(authorization.lowerBound + bearer.upperBound)
                if let parsed = ProviderTokenParser.parse(block.string(range)) {
                    result.teamID = parsed.teamID
                    result.keyID = parsed.keyID
                    result.keyUnknown = context.registry.keys[parsed.keyID] == nil
                }
            }
            facts.authentication = result
        }
    }
}
