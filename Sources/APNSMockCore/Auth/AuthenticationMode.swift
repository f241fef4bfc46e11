/// How a connection authenticates its pushes.
public enum AuthenticationMode: Sendable, Hashable {
    /// JWT provider tokens in `authorization` (no client certificate was presented).
    case token
    /// A client certificate presented in the TLS handshake.
    indirect case certificate(CertificateIdentity)
}
