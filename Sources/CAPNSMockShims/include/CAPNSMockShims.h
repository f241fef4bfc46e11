#ifndef CAPNSMOCKSHIMS_H
#define CAPNSMOCKSHIMS_H

#include <openssl/ssl.h>

/// Sets the TLS versions a server context accepts (OpenSSL macros, wrapped for Swift).
int apnsmock_ctx_set_proto_versions(SSL_CTX *ctx, int min_version, int max_version);

/// Installs the ALPN selection: `h2` when offered; a client that offers ALPN without `h2`
/// (for instance only `http/1.1`) is refused with the no_application_protocol alert. A client
/// that offers no ALPN at all never reaches the callback and proceeds (HTTP/2 by prior knowledge).
void apnsmock_ctx_install_alpn(SSL_CTX *ctx);

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

#endif
