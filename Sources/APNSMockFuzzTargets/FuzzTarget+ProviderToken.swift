import APNSMockCore

extension FuzzTarget {
    /// An `authorization` header value: the bearer token found in it (as text and as bytes, which
    /// must agree), the token parsed, its signature checked against the registered key, and the
    /// summary the records keep of it.
    static let providerToken = FuzzTarget(
        name: "provider-token",
        summary: "an authorization header value -> ProviderTokenParser, signature check, JWTSummary",
        maximumLength: 2048
    ) { bytes in
        let header = FuzzInput.text(bytes)
        let byText = ProviderTokenParser.bearerToken(fromAuthorization: header)
        let utf8 = Array(header.utf8)
        let byBytes = utf8.withUnsafeBufferPointer { ProviderTokenParser.bearerTokenRange($0) }
        if let byText, let byBytes {
            precondition(
                byText.utf8.elementsEqual(utf8[byBytes]), "bearer token differs between text and bytes")
        }
        if let token = byText, let parsed = ProviderTokenParser.parse(token) {
            _ = parsed.isSigned(by: FuzzFixtures.key)
        }
        _ = ProviderTokenParser.parse(header)
        _ = JWTSummary.strippingSignature(header)
        _ = utf8.withUnsafeBufferPointer { JWTSummary.signatureCut($0) }
        _ = JWTSummary(authorization: header)
    }
}
