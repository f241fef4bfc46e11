private import CAPNSMockShims
private import COpenSSL

/// An OpenSSL server context: certificate, key, TLS 1.2–1.3, ALPN `h2` (and `http/1.1` for Web
/// Push).
///
/// Owns one `SSL_CTX*`, freed in `deinit`. Immutable after `init`; OpenSSL allows one context
/// to be shared by connections on many threads, which is why the type is `Sendable`.
public final class TLSServerContext: @unchecked Sendable {
    // @unchecked: the pointer is written once in init and only read (SSL_new) afterwards,
    // which OpenSSL documents as thread-safe for SSL_CTX.
    let context: OpaquePointer

    /// Whether clients are asked for a certificate.
    public let requestsClientCertificates: Bool

    /// Loads a PEM certificate chain and private key, and the CA of provider certificates.
    /// `servesHTTP1`: ALPN may choose `http/1.1` when the client does not offer `h2` (the Web
    /// Push listener); otherwise such a client is refused.
    /// - Throws: `TLSError` naming the file that could not be used.
    public init(
        certificatePath: String, privateKeyPath: String, clientCAPath: String? = nil, servesHTTP1: Bool = false
    ) throws {
        requestsClientCertificates = clientCAPath != nil
        guard let ctx = SSL_CTX_new(TLS_server_method()) else {
            throw TLSError("cannot create an OpenSSL context: \(TLSError.drainOpenSSLErrors())")
        }
        context = ctx
        guard apnsmock_ctx_set_proto_versions(ctx, TLS1_2_VERSION, TLS1_3_VERSION) == 1 else {
            throw TLSError("cannot limit TLS versions: \(TLSError.drainOpenSSLErrors())")
        }
        apnsmock_ctx_configure(ctx)
        if servesHTTP1 {
            apnsmock_ctx_install_alpn_with_http1(ctx)
        } else {
            apnsmock_ctx_install_alpn(ctx)
        }
        guard SSL_CTX_use_certificate_chain_file(ctx, certificatePath) == 1 else {
            throw TLSError(
                "cannot load the TLS certificate '\(certificatePath)': \(TLSError.drainOpenSSLErrors())")
        }
        guard SSL_CTX_use_PrivateKey_file(ctx, privateKeyPath, SSL_FILETYPE_PEM) == 1 else {
            throw TLSError(
                "cannot load the TLS private key '\(privateKeyPath)': \(TLSError.drainOpenSSLErrors())")
        }
        if let clientCAPath, apnsmock_ctx_request_client_certificates(ctx, clientCAPath) != 1 {
            throw TLSError(
                "cannot load the client CA '\(clientCAPath)' (PEM certificates expected): \(TLSError.drainOpenSSLErrors())"
            )
        }
        guard SSL_CTX_check_private_key(ctx) == 1 else {
            throw TLSError(
                "the TLS private key '\(privateKeyPath)' does not match the certificate '\(certificatePath)'")
        }
    }

    deinit {
        SSL_CTX_free(context)
    }
}
