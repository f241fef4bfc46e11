#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "CAPNSMockShims.h"
#include <openssl/err.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <string.h>

int apnsmock_ctx_set_proto_versions(SSL_CTX *ctx, int min_version, int max_version) {
    if (SSL_CTX_set_min_proto_version(ctx, min_version) != 1) return 0;
    if (SSL_CTX_set_max_proto_version(ctx, max_version) != 1) return 0;
    return 1;
}

/* Finds `name` (of `name_len` bytes) in the client's ALPN list; sets `out` when found. */
static int apnsmock_alpn_find(const unsigned char **out, unsigned char *outlen, const unsigned char *in,
                              unsigned int inlen, const char *name, unsigned int name_len) {
    unsigned int i = 0;
    while (i < inlen) {
        unsigned int len = in[i];
        if (i + 1 + len > inlen) break;
        if (len == name_len && memcmp(in + i + 1, name, name_len) == 0) {
            *out = in + i + 1;
            *outlen = (unsigned char)len;
            return 1;
        }
        i += 1 + len;
    }
    return 0;
}

/* `arg` is non-NULL when HTTP/1.1 is served too (the Web Push listener). */
static int apnsmock_alpn_select(SSL *ssl, const unsigned char **out, unsigned char *outlen,
                                const unsigned char *in, unsigned int inlen, void *arg) {
    (void)ssl;
    if (apnsmock_alpn_find(out, outlen, in, inlen, "h2", 2)) return SSL_TLSEXT_ERR_OK;
    if (arg != NULL && apnsmock_alpn_find(out, outlen, in, inlen, "http/1.1", 8)) return SSL_TLSEXT_ERR_OK;
    return SSL_TLSEXT_ERR_ALERT_FATAL;
}

static int apnsmock_http1_allowed = 1;

void apnsmock_ctx_install_alpn(SSL_CTX *ctx) {
    SSL_CTX_set_alpn_select_cb(ctx, apnsmock_alpn_select, NULL);
}

void apnsmock_ctx_install_alpn_with_http1(SSL_CTX *ctx) {
    SSL_CTX_set_alpn_select_cb(ctx, apnsmock_alpn_select, &apnsmock_http1_allowed);
}

void apnsmock_ctx_configure(SSL_CTX *ctx) {
    SSL_CTX_set_options(ctx, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION |
                                 SSL_OP_CIPHER_SERVER_PREFERENCE);
    SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER |
                              SSL_MODE_RELEASE_BUFFERS);
    SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_SERVER);
    SSL_CTX_set_session_id_context(ctx, (const unsigned char *)"apns-mock", 9);
}

const char *apnsmock_ssl_server_name(const SSL *ssl) {
    return SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name);
}

int apnsmock_ssl_alpn(const SSL *ssl, char *out, int capacity) {
    const unsigned char *data = NULL;
    unsigned int len = 0;
    SSL_get0_alpn_selected(ssl, &data, &len);
    if (data == NULL || len == 0 || (int)len >= capacity) return 0;
    memcpy(out, data, len);
    out[len] = 0;
    return (int)len;
}

int apnsmock_error_is_no_application_protocol(unsigned long err) {
    return ERR_GET_REASON(err) == SSL_R_NO_APPLICATION_PROTOCOL;
}

size_t apnsmock_bio_pending(BIO *bio) { return BIO_ctrl_pending(bio); }

const char *apnsmock_ssl_version(const SSL *ssl) { return SSL_get_version(ssl); }

static int apnsmock_accept_any_client_certificate(int preverify_ok, X509_STORE_CTX *ctx) {
    (void)preverify_ok;
    (void)ctx;
    /* The verdict stays in SSL_get_verify_result; each request is answered 403 BadCertificate. */
    return 1;
}

int apnsmock_ctx_request_client_certificates(SSL_CTX *ctx, const char *ca_file) {
    if (SSL_CTX_load_verify_locations(ctx, ca_file, NULL) != 1) return 0;
    STACK_OF(X509_NAME) *names = SSL_load_client_CA_file(ca_file);
    if (names == NULL) return 0;
    SSL_CTX_set_client_CA_list(ctx, names);
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, apnsmock_accept_any_client_certificate);
    SSL_CTX_set_verify_depth(ctx, 4);
    return 1;
}

int apnsmock_ssl_peer_certificate_der(const SSL *ssl, unsigned char **out) {
    *out = NULL;
    X509 *certificate = SSL_get1_peer_certificate(ssl);
    if (certificate == NULL) return 0;
    int length = i2d_X509(certificate, out);
    X509_free(certificate);
    return length > 0 ? length : 0;
}

void apnsmock_free(void *pointer) { OPENSSL_free(pointer); }

long apnsmock_ssl_verify_result(const SSL *ssl) { return SSL_get_verify_result(ssl); }

const char *apnsmock_verify_error_string(long result) { return X509_verify_cert_error_string(result); }

#ifdef __linux__
#include <sched.h>
int apnsmock_available_cpus(void) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) != 0) return -1;
    return CPU_COUNT(&set);
}
#else
int apnsmock_available_cpus(void) { return -1; }
#endif
