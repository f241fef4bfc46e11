#ifndef CAPNSMOCKSHIMS_H
#define CAPNSMOCKSHIMS_H

#include <openssl/ssl.h>

/// Sets the TLS versions a server context accepts (OpenSSL macros, wrapped for Swift).
int apnsmock_ctx_set_proto_versions(SSL_CTX *ctx, int min_version, int max_version);

/// Installs the ALPN selection: `h2` when offered; a client that offers ALPN without `h2`
/// (for instance only `http/1.1`) is refused with the no_application_protocol alert. A client
/// that offers no ALPN at all never reaches the callback and proceeds (HTTP/2 by prior knowledge).
void apnsmock_ctx_install_alpn(SSL_CTX *ctx);

/// Installs the Web Push listener's ALPN selection: `h2` when offered, else `http/1.1` when
/// offered; a client that offers neither is refused (no_application_protocol). A client that
/// offers no ALPN speaks HTTP/1.1 (Apple's default for Web Push).
void apnsmock_ctx_install_alpn_with_http1(SSL_CTX *ctx);

/// Configures session and mode flags for a server context driven over memory BIOs.
void apnsmock_ctx_configure(SSL_CTX *ctx);

/// The TLS server name (SNI) the client sent, or NULL.
const char *apnsmock_ssl_server_name(const SSL *ssl);

/// The negotiated ALPN protocol, copied into `out` (NUL-terminated); returns its length, 0 if none.
int apnsmock_ssl_alpn(const SSL *ssl, char *out, int capacity);

/// Whether the last handshake failure was the ALPN refusal.
int apnsmock_error_is_no_application_protocol(unsigned long err);

/// Number of bytes waiting in a memory BIO.
size_t apnsmock_bio_pending(BIO *bio);

/// The negotiated protocol version's name ("TLSv1.3").
const char *apnsmock_ssl_version(const SSL *ssl);

/// Asks clients for a certificate signed by the CAs in `ca_file` (their names are sent, so
/// JDK clients pick the right one) without requiring one. The verification callback records
/// the verdict and lets the handshake finish; read it with SSL_get_verify_result.
/// Returns 1 on success.
int apnsmock_ctx_request_client_certificates(SSL_CTX *ctx, const char *ca_file);

/// The client certificate in DER, allocated with OPENSSL_malloc (free with apnsmock_free);
/// returns its length, 0 when the client sent none.
int apnsmock_ssl_peer_certificate_der(const SSL *ssl, unsigned char **out);

/// Frees memory from apnsmock_ssl_peer_certificate_der.
void apnsmock_free(void *pointer);

/// The result of verifying the client certificate: 0 (X509_V_OK) when trusted.
long apnsmock_ssl_verify_result(const SSL *ssl);

/// A sentence for a verification result.
const char *apnsmock_verify_error_string(long result);

/// Number of CPUs this process may run on (its affinity mask, e.g. under taskset); -1 when unknown.
int apnsmock_available_cpus(void);

#endif
