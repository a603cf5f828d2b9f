#include "CSystem.h"
#include <openssl/x509v3.h>
#include <openssl/pem.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <string.h>
#include <stdio.h>
#include <time.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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
