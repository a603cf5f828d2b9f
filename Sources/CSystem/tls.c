#include "CSystem.h"
#include <openssl/x509v3.h>
#include <openssl/pem.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/err.h>
#include <string.h>
#include <stdio.h>
#include <time.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pthread.h>

long csys_ssl_ctx_set_servername_callback(SSL_CTX *ctx, csys_servername_cb cb) {
    return SSL_CTX_set_tlsext_servername_callback(ctx, cb);
}
long csys_ssl_ctx_set_servername_arg(SSL_CTX *ctx, void *arg) {
    return SSL_CTX_set_tlsext_servername_arg(ctx, arg);
}
long csys_ssl_ctx_set_min_proto_tls12(SSL_CTX *ctx) {
    return SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
}
long csys_ssl_ctx_set_session_cache_server(SSL_CTX *ctx) {
    SSL_CTX_sess_set_cache_size(ctx, 20000);
    // One TLS 1.3 ticket per full handshake, not OpenSSL's two: a link's visitor makes
    // one request and leaves, and comes back (if ever) on one connection. The second
    // ticket was a session encoding and an encryption per click for nobody (bench/clicks.py).
    SSL_CTX_set_num_tickets(ctx, 1);
    return SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_SERVER);
}
long csys_ssl_ctx_set_groups(SSL_CTX *ctx, const char *list) {
    return SSL_CTX_set1_groups_list(ctx, list);
}
long csys_ssl_ctx_set_mode_defaults(SSL_CTX *ctx) {
    // Read-ahead: one recv takes a whole record (and whatever follows) instead of a
    // 5-byte header read and then the body, one syscall fewer per request. The event
    // loop wakes itself for bytes OpenSSL then holds (SSL_has_pending), which epoll
    // cannot see.
    SSL_CTX_set_read_ahead(ctx, 1);
    // Partial writes and moving buffers let the event loop retry SSL_write with a
    // buffer that has since grown; releasing buffers saves ~34 KB per idle connection.
    return SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER |
                                     SSL_MODE_RELEASE_BUFFERS);
}
uint64_t csys_ssl_ctx_set_options_defaults(SSL_CTX *ctx) {
    // IGNORE_UNEXPECTED_EOF: a client that closes its socket without close_notify
    // ends the connection like close_notify would (SSL_ERROR_ZERO_RETURN). As a fatal
    // error it also evicted the session from the cache. HTTP/1.1 framing (lengths,
    // chunks) already tells a complete request from a truncated one.
    return SSL_CTX_set_options(ctx, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION |
                                        SSL_OP_CIPHER_SERVER_PREFERENCE | SSL_OP_NO_SSLv3 | SSL_OP_NO_TLSv1 |
                                        SSL_OP_NO_TLSv1_1 | SSL_OP_IGNORE_UNEXPECTED_EOF);
}

static int alpn_select(SSL *ssl, const unsigned char **out, unsigned char *outlen, const unsigned char *in,
                       unsigned int inlen, void *arg) {
    (void)ssl; (void)arg;
    static const unsigned char proto[] = "\x08http/1.1";
    unsigned char *selected = NULL;
    if (SSL_select_next_proto(&selected, outlen, proto, sizeof(proto) - 1, in, inlen) == OPENSSL_NPN_NEGOTIATED) {
        *out = selected;
        return SSL_TLSEXT_ERR_OK;
    }
    // A client that offers only h2 still gets HTTP/1.1 without ALPN rather than a failed handshake.
    return SSL_TLSEXT_ERR_NOACK;
}

void csys_ssl_ctx_set_alpn_http11(SSL_CTX *ctx) { SSL_CTX_set_alpn_select_cb(ctx, alpn_select, NULL); }

int csys_ssl_ctx_set_session_id_context(SSL_CTX *ctx) {
    static const unsigned char sid[] = "biqli-edge";
    return SSL_CTX_set_session_id_context(ctx, sid, sizeof(sid) - 1);
}

const char *csys_ssl_get_servername(const SSL *ssl) { return SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name); }

int csys_ssl_ctx_cert_valid_now(SSL_CTX *ctx) {
    X509 *cert = SSL_CTX_get0_certificate(ctx);
    if (!cert) return 0;
    time_t now = time(NULL);
    if (X509_cmp_time(X509_get0_notBefore(cert), &now) > 0) return 0;
    if (X509_cmp_time(X509_get0_notAfter(cert), &now) <= 0) return 0;
    return 1;
}

long long csys_ssl_ctx_cert_not_after(SSL_CTX *ctx) {
    X509 *cert = SSL_CTX_get0_certificate(ctx);
    if (!cert) return -1;
    struct tm tm;
    if (!ASN1_TIME_to_tm(X509_get0_notAfter(cert), &tm)) return -1;
    return (long long)timegm(&tm);
}

int csys_ssl_ctx_cert_names(SSL_CTX *ctx, char *buf, int len) {
    X509 *cert = SSL_CTX_get0_certificate(ctx);
    if (!cert || len <= 0) return -1;
    int used = 0;
    buf[0] = 0;
    GENERAL_NAMES *sans = X509_get_ext_d2i(cert, NID_subject_alt_name, NULL, NULL);
    if (sans) {
        for (int i = 0; i < sk_GENERAL_NAME_num(sans); i++) {
            GENERAL_NAME *gn = sk_GENERAL_NAME_value(sans, i);
            if (gn->type != GEN_DNS) continue;
            const char *s = (const char *)ASN1_STRING_get0_data(gn->d.dNSName);
            int n = ASN1_STRING_length(gn->d.dNSName);
            if (used + n + 2 > len) break;
            memcpy(buf + used, s, n);
            used += n;
            buf[used++] = '\n';
            buf[used] = 0;
        }
        GENERAL_NAMES_free(sans);
    }
    X509_NAME *subj = X509_get_subject_name(cert);
    char cn[256];
    int n = X509_NAME_get_text_by_NID(subj, NID_commonName, cn, sizeof(cn));
    if (n > 0 && used + n + 2 <= len) {
        memcpy(buf + used, cn, n);
        used += n;
        buf[used++] = '\n';
        buf[used] = 0;
    }
    return used;
}

int csys_write_self_signed_pem(const char *path, const char *names, int days) {
    int ok = 0;
    EVP_PKEY *key = EVP_EC_gen("P-256");
    X509 *x = X509_new();
    FILE *f = NULL;
    if (!key || !x) goto done;
    X509_set_version(x, 2);
    unsigned char serial[16];
    if (RAND_bytes(serial, sizeof serial) != 1) goto done;
    serial[0] &= 0x7f;
    BIGNUM *bn = BN_bin2bn(serial, sizeof serial, NULL);
    BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(x));
    BN_free(bn);
    X509_gmtime_adj(X509_getm_notBefore(x), -3600);
    X509_gmtime_adj(X509_getm_notAfter(x), (long)days * 86400L);
    X509_set_pubkey(x, key);
    char first[256];
    const char *nl = strchr(names, '\n');
    size_t flen = nl ? (size_t)(nl - names) : strlen(names);
    if (flen >= sizeof first) flen = sizeof first - 1;
    memcpy(first, names, flen);
    first[flen] = 0;
    X509_NAME *name = X509_get_subject_name(x);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)first, -1, -1, 0);
    X509_set_issuer_name(x, name);
    char san[4096];
    size_t used = 0;
    const char *p = names;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n > 0 && used + n + 6 < sizeof san) {
            if (used) san[used++] = ',';
            memcpy(san + used, "DNS:", 4);
            used += 4;
            memcpy(san + used, p, n);
            used += n;
        }
        if (!e) break;
        p = e + 1;
    }
    san[used] = 0;
    X509V3_CTX v3;
    X509V3_set_ctx_nodb(&v3);
    X509V3_set_ctx(&v3, x, x, NULL, NULL, 0);
    X509_EXTENSION *ext = X509V3_EXT_conf_nid(NULL, &v3, NID_subject_alt_name, san);
    if (!ext) goto done;
    X509_add_ext(x, ext, -1);
    X509_EXTENSION_free(ext);
    if (!X509_sign(x, key, EVP_sha256())) goto done;
    // The file holds the private key: 0600 whatever the umask (and an existing file's mode).
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) goto done;
    if (fchmod(fd, 0600) != 0 || !(f = fdopen(fd, "wb"))) {
        close(fd);
        goto done;
    }
    if (!PEM_write_X509(f, x)) goto done;
    if (!PEM_write_PrivateKey(f, key, NULL, NULL, 0, NULL, NULL)) goto done;
    ok = 1;
done:
    if (f) fclose(f);
    X509_free(x);
    EVP_PKEY_free(key);
    return ok;
}

// MARK: TLS-ALPN-01 (RFC 8737): a per-name certificate for clients that offer acme-tls/1
//
// The one ALPN protocol whose offer makes the server present another certificate. The
// client-hello callback notes whether the client offered it (in the connection's
// ex_data: no allocation); the SNI callback (CertificateSet) then switches to the
// context made for that name, whose ALPN selector accepts acme-tls/1 only. Installed
// only when such certificates can exist (BIQLI_EDGE_ACME): otherwise no handshake pays
// for it.

static const unsigned char acme_tls[] = "\x0a" "acme-tls/1";
static int offered_index = -1;
static pthread_once_t offered_once = PTHREAD_ONCE_INIT;
static void make_offered_index(void) { offered_index = SSL_get_ex_new_index(0, NULL, NULL, NULL, NULL); }

static int offers_acme_tls(const unsigned char *p, size_t len) {
    if (len < 2) return 0;
    size_t list = ((size_t)p[0] << 8) | p[1];
    if (list + 2 > len) return 0;
    p += 2;
    size_t at = 0;
    while (at < list) {
        size_t n = p[at];
        if (at + 1 + n > list) return 0;
        if (n == sizeof acme_tls - 2 && memcmp(p + at + 1, acme_tls + 1, n) == 0) return 1;
        at += 1 + n;
    }
    return 0;
}

static int note_alpn_offer(SSL *ssl, int *alert, void *arg) {
    (void)alert; (void)arg;
    const unsigned char *p = NULL;
    size_t len = 0;
    int offered = SSL_client_hello_get0_ext(ssl, TLSEXT_TYPE_application_layer_protocol_negotiation, &p, &len) &&
                  offers_acme_tls(p, len);
    SSL_set_ex_data(ssl, offered_index, offered ? (void *)1 : NULL);
    return SSL_CLIENT_HELLO_SUCCESS;
}

void csys_ssl_ctx_watch_acme_alpn(SSL_CTX *ctx) {
    pthread_once(&offered_once, make_offered_index);
    SSL_CTX_set_client_hello_cb(ctx, note_alpn_offer, NULL);
}

int csys_ssl_offered_acme_alpn(SSL *ssl) {
    return offered_index >= 0 && SSL_get_ex_data(ssl, offered_index) != NULL;
}

static int alpn_select_acme(SSL *ssl, const unsigned char **out, unsigned char *outlen, const unsigned char *in,
                            unsigned int inlen, void *arg) {
    (void)ssl; (void)arg;
    unsigned char *selected = NULL;
    if (SSL_select_next_proto(&selected, outlen, acme_tls, sizeof acme_tls - 1, in, inlen) == OPENSSL_NPN_NEGOTIATED) {
        *out = selected;
        return SSL_TLSEXT_ERR_OK;
    }
    // The challenge certificate is for acme-tls/1 only (RFC 8737, section 4).
    return SSL_TLSEXT_ERR_ALERT_FATAL;
}

void csys_ssl_ctx_set_alpn_acme_only(SSL_CTX *ctx) { SSL_CTX_set_alpn_select_cb(ctx, alpn_select_acme, NULL); }

// MARK: certificates from memory

int csys_ssl_ctx_use_pem(SSL_CTX *ctx, const char *pem, int len) {
    BIO *bio = BIO_new_mem_buf(pem, len);
    if (!bio) return -1;
    int rc = 0;
    X509 *leaf = PEM_read_bio_X509(bio, NULL, NULL, NULL);
    if (!leaf || SSL_CTX_use_certificate(ctx, leaf) != 1) {
        rc = 1;  // no usable certificate
        goto done;
    }
    for (;;) {
        X509 *ca = PEM_read_bio_X509(bio, NULL, NULL, NULL);
        if (!ca) break;
        if (!SSL_CTX_add0_chain_cert(ctx, ca)) {
            X509_free(ca);
            rc = 1;
            goto done;
        }
    }
    ERR_clear_error();  // the loop ends on "no start line"
    BIO_free(bio);
    bio = BIO_new_mem_buf(pem, len);
    EVP_PKEY *key = bio ? PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL) : NULL;
    if (!key || SSL_CTX_use_PrivateKey(ctx, key) != 1) {
        EVP_PKEY_free(key);
        rc = 2;  // no usable private key
        goto done;
    }
    EVP_PKEY_free(key);
    if (SSL_CTX_check_private_key(ctx) != 1) rc = 3;  // the key does not match
done:
    X509_free(leaf);
    BIO_free(bio);
    return rc;
}

int csys_ssl_ctx_cert_self_issued(SSL_CTX *ctx) {
    X509 *cert = SSL_CTX_get0_certificate(ctx);
    return cert && X509_check_issued(cert, cert) == X509_V_OK;
}

int csys_ssl_ctx_cert_issuer(SSL_CTX *ctx, char *buf, int len) {
    X509 *cert = SSL_CTX_get0_certificate(ctx);
    if (!cert || len <= 0) return -1;
    BIO *bio = BIO_new(BIO_s_mem());
    if (!bio) return -1;
    X509_NAME_print_ex(bio, X509_get_issuer_name(cert), 0, XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB);
    char *data = NULL;
    long n = BIO_get_mem_data(bio, &data);
    if (n >= len) n = len - 1;
    if (n > 0) memcpy(buf, data, (size_t)n);
    buf[n > 0 ? n : 0] = 0;
    BIO_free(bio);
    return (int)(n > 0 ? n : 0);
}
