#include "CSystem.h"
#include <openssl/bio.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <string.h>
#include <time.h>

// Keys, signatures and X.509 objects for the ACME client (the Certificates module):
// what is made of OpenSSL's variadic functions, macros and stacks, which Swift cannot
// call, kept to small functions that take and give plain bytes.

EVP_PKEY *csys_ec_p256_generate(void) { return EVP_EC_gen("P-256"); }

void csys_pkey_free(EVP_PKEY *key) { EVP_PKEY_free(key); }

/// Copies a memory BIO's bytes into `buf`; the length, or -1 when `cap` is too small.
static int drain(BIO *bio, char *buf, int cap) {
    char *data = NULL;
    long n = BIO_get_mem_data(bio, &data);
    if (n < 0 || n > cap) return -1;
    memcpy(buf, data, (size_t)n);
    return (int)n;
}

int csys_pkey_private_pem(EVP_PKEY *key, char *buf, int cap) {
    BIO *bio = BIO_new(BIO_s_mem());
    if (!bio) return -1;
    int n = -1;
    if (PEM_write_bio_PrivateKey(bio, key, NULL, NULL, 0, NULL, NULL)) n = drain(bio, buf, cap);
    BIO_free(bio);
    return n;
}

EVP_PKEY *csys_pkey_from_pem(const char *pem, int len) {
    BIO *bio = BIO_new_mem_buf(pem, len);
    if (!bio) return NULL;
    EVP_PKEY *key = PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL);
    BIO_free(bio);
    ERR_clear_error();
    return key;
}

int csys_ec_public_xy(EVP_PKEY *key, uint8_t x[32], uint8_t y[32]) {
    unsigned char point[65];
    size_t len = 0;
    if (!EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, point, sizeof point, &len))
        return 0;
    if (len != 65 || point[0] != 0x04) return 0;
    memcpy(x, point + 1, 32);
    memcpy(y, point + 33, 32);
    return 1;
}

int csys_es256_sign(EVP_PKEY *key, const uint8_t *data, size_t len, uint8_t sig[64]) {
    int ok = 0;
    unsigned char der[80];
    size_t derlen = sizeof der;
    ECDSA_SIG *s = NULL;
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    if (!md) return 0;
    if (EVP_DigestSignInit(md, NULL, EVP_sha256(), NULL, key) != 1) goto done;
    if (EVP_DigestSign(md, der, &derlen, data, len) != 1) goto done;
    // JWS wants r || s, each 32 bytes big-endian (RFC 7518, 3.4), not the DER sequence.
    const unsigned char *p = der;
    s = d2i_ECDSA_SIG(NULL, &p, (long)derlen);
    if (!s) goto done;
    const BIGNUM *r = NULL, *sv = NULL;
    ECDSA_SIG_get0(s, &r, &sv);
    if (BN_bn2binpad(r, sig, 32) != 32 || BN_bn2binpad(sv, sig + 32, 32) != 32) goto done;
    ok = 1;
done:
    ECDSA_SIG_free(s);
    EVP_MD_CTX_free(md);
    ERR_clear_error();
    return ok;
}

int csys_es256_verify(EVP_PKEY *key, const uint8_t *data, size_t len, const uint8_t sig[64]) {
    int ok = 0;
    unsigned char *der = NULL;
    ECDSA_SIG *s = ECDSA_SIG_new();
    BIGNUM *r = BN_bin2bn(sig, 32, NULL), *sv = BN_bin2bn(sig + 32, 32, NULL);
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    if (!s || !r || !sv || !md) goto done;
    if (!ECDSA_SIG_set0(s, r, sv)) goto done;
    r = sv = NULL;  // owned by s now
    int derlen = i2d_ECDSA_SIG(s, &der);
    if (derlen <= 0) goto done;
    if (EVP_DigestVerifyInit(md, NULL, EVP_sha256(), NULL, key) != 1) goto done;
    ok = EVP_DigestVerify(md, der, (size_t)derlen, data, len) == 1;
done:
    OPENSSL_free(der);
    BN_free(r);
    BN_free(sv);
    ECDSA_SIG_free(s);
    EVP_MD_CTX_free(md);
    ERR_clear_error();
    return ok;
}

int csys_hmac_sha256(const uint8_t *key, size_t keylen, const uint8_t *data, size_t len, uint8_t out[32]) {
    unsigned int n = 0;
    // A zero-length key is still a key (HMAC pads it); OpenSSL wants a non-NULL pointer.
    static const uint8_t empty = 0;
    if (!HMAC(EVP_sha256(), keylen ? key : &empty, (int)keylen, data, len, out, &n)) return 0;
    return n == 32;
}

/// `DNS:a,DNS:b` from '\n'-separated names; 0 when it does not fit.
static int san_list(const char *names, char *san, size_t cap) {
    size_t used = 0;
    const char *p = names;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n > 0) {
            if (used + n + 6 >= cap) return 0;
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
    return used > 0;
}

int csys_csr_der(EVP_PKEY *key, const char *names, uint8_t *out, int cap) {
    int result = -1;
    char san[8192];
    X509_REQ *req = X509_REQ_new();
    STACK_OF(X509_EXTENSION) *exts = sk_X509_EXTENSION_new_null();
    if (!req || !exts || !san_list(names, san, sizeof san)) goto done;
    X509_REQ_set_version(req, 0);
    // The subject's CN is the first name (CAs take the names from the SAN; a CN keeps
    // older tools readable).
    char first[256];
    const char *nl = strchr(names, '\n');
    size_t flen = nl ? (size_t)(nl - names) : strlen(names);
    if (flen == 0 || flen >= sizeof first) goto done;
    memcpy(first, names, flen);
    first[flen] = 0;
    X509_NAME *subject = X509_REQ_get_subject_name(req);
    if (!X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_ASC, (const unsigned char *)first, -1, -1, 0)) goto done;
    if (!X509_REQ_set_pubkey(req, key)) goto done;
    X509V3_CTX v3;
    X509V3_set_ctx_nodb(&v3);
    X509V3_set_ctx(&v3, NULL, NULL, req, NULL, 0);
    X509_EXTENSION *ext = X509V3_EXT_conf_nid(NULL, &v3, NID_subject_alt_name, san);
    if (!ext) goto done;
    sk_X509_EXTENSION_push(exts, ext);
    if (!X509_REQ_add_extensions(req, exts)) goto done;
    if (!X509_REQ_sign(req, key, EVP_sha256())) goto done;
    int n = i2d_X509_REQ(req, NULL);
    if (n <= 0 || n > cap) goto done;
    unsigned char *p = out;
    result = i2d_X509_REQ(req, &p);
done:
    sk_X509_EXTENSION_pop_free(exts, X509_EXTENSION_free);
    X509_REQ_free(req);
    ERR_clear_error();
    return result;
}

int csys_alpn_challenge_pem(const char *name, const uint8_t digest[32], char *out, int cap) {
    int result = -1;
    EVP_PKEY *key = EVP_EC_gen("P-256");
    X509 *x = X509_new();
    ASN1_OBJECT *oid = OBJ_txt2obj("1.3.6.1.5.5.7.1.31", 1);  // id-pe-acmeIdentifier (RFC 8737)
    ASN1_OCTET_STRING *value = ASN1_OCTET_STRING_new();
    BIO *bio = BIO_new(BIO_s_mem());
    char san[600];
    if (!key || !x || !oid || !value || !bio || strlen(name) > 253) goto done;
    X509_set_version(x, 2);
    unsigned char serial[16];
    if (RAND_bytes(serial, sizeof serial) != 1) goto done;
    serial[0] &= 0x7f;
    BIGNUM *bn = BN_bin2bn(serial, sizeof serial, NULL);
    BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(x));
    BN_free(bn);
    X509_gmtime_adj(X509_getm_notBefore(x), -3600);
    X509_gmtime_adj(X509_getm_notAfter(x), 7L * 86400L);
    X509_set_pubkey(x, key);
    X509_NAME *subject = X509_get_subject_name(x);
    X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_ASC, (const unsigned char *)"ACME challenge", -1, -1, 0);
    X509_set_issuer_name(x, subject);
    snprintf(san, sizeof san, "DNS:%s", name);
    X509V3_CTX v3;
    X509V3_set_ctx_nodb(&v3);
    X509V3_set_ctx(&v3, x, x, NULL, NULL, 0);
    X509_EXTENSION *ext = X509V3_EXT_conf_nid(NULL, &v3, NID_subject_alt_name, san);
    if (!ext) goto done;
    X509_add_ext(x, ext, -1);
    X509_EXTENSION_free(ext);
    // The extension's value is the DER of an OCTET STRING holding the SHA-256 digest of
    // the key authorization; the extension is critical.
    unsigned char inner[34] = {0x04, 0x20};
    memcpy(inner + 2, digest, 32);
    if (!ASN1_OCTET_STRING_set(value, inner, sizeof inner)) goto done;
    ext = X509_EXTENSION_create_by_OBJ(NULL, oid, 1, value);
    if (!ext) goto done;
    X509_add_ext(x, ext, -1);
    X509_EXTENSION_free(ext);
    if (!X509_sign(x, key, EVP_sha256())) goto done;
    if (!PEM_write_bio_X509(bio, x) || !PEM_write_bio_PrivateKey(bio, key, NULL, NULL, 0, NULL, NULL)) goto done;
    result = drain(bio, out, cap);
done:
    BIO_free(bio);
    ASN1_OCTET_STRING_free(value);
    ASN1_OBJECT_free(oid);
    X509_free(x);
    EVP_PKEY_free(key);
    ERR_clear_error();
    return result;
}

static long long unix_time(const ASN1_TIME *t) {
    struct tm tm;
    if (!t || !ASN1_TIME_to_tm(t, &tm)) return -1;
    return (long long)timegm(&tm);
}

int csys_cert_info(const char *pem, int len, struct csys_cert_info *info) {
    memset(info, 0, sizeof *info);
    BIO *bio = BIO_new_mem_buf(pem, len);
    if (!bio) return 0;
    X509 *x = PEM_read_bio_X509(bio, NULL, NULL, NULL);
    BIO_free(bio);
    if (!x) {
        ERR_clear_error();
        return 0;
    }
    info->not_before = unix_time(X509_get0_notBefore(x));
    info->not_after = unix_time(X509_get0_notAfter(x));
    BIO *name = BIO_new(BIO_s_mem());
    if (name) {
        X509_NAME_print_ex(name, X509_get_issuer_name(x), 0, XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB);
        int n = drain(name, info->issuer, (int)sizeof info->issuer - 1);
        info->issuer[n > 0 ? n : 0] = 0;
        BIO_free(name);
    }
    info->self_issued = X509_check_issued(x, x) == X509_V_OK;
    // The serial's DER content octets (a leading zero included), as ARI's CertID takes them.
    unsigned char *der = NULL;
    int n = i2d_ASN1_INTEGER(X509_get0_serialNumber(x), &der);
    if (n > 2 && der[1] < 0x80 && n - 2 <= (int)sizeof info->serial) {
        memcpy(info->serial, der + 2, (size_t)(n - 2));
        info->serial_len = n - 2;
    }
    OPENSSL_free(der);
    const ASN1_OCTET_STRING *aki = X509_get0_authority_key_id(x);
    if (aki && ASN1_STRING_length(aki) <= (int)sizeof info->aki) {
        memcpy(info->aki, ASN1_STRING_get0_data(aki), (size_t)ASN1_STRING_length(aki));
        info->aki_len = ASN1_STRING_length(aki);
    }
    GENERAL_NAMES *sans = X509_get_ext_d2i(x, NID_subject_alt_name, NULL, NULL);
    size_t used = 0;
    if (sans) {
        for (int i = 0; i < sk_GENERAL_NAME_num(sans); i++) {
            GENERAL_NAME *gn = sk_GENERAL_NAME_value(sans, i);
            if (gn->type != GEN_DNS) continue;
            int dn = ASN1_STRING_length(gn->d.dNSName);
            if (used + (size_t)dn + 2 > sizeof info->names) break;
            memcpy(info->names + used, ASN1_STRING_get0_data(gn->d.dNSName), (size_t)dn);
            used += (size_t)dn;
            info->names[used++] = '\n';
        }
        GENERAL_NAMES_free(sans);
    }
    info->names[used] = 0;
    X509_free(x);
    ERR_clear_error();
    return 1;
}

int csys_cert_matches_key(const char *pem, int len, EVP_PKEY *key) {
    BIO *bio = BIO_new_mem_buf(pem, len);
    if (!bio) return 0;
    X509 *x = PEM_read_bio_X509(bio, NULL, NULL, NULL);
    BIO_free(bio);
    int ok = x && X509_check_private_key(x, key) == 1;
    X509_free(x);
    ERR_clear_error();
    return ok;
}

int csys_acme_identifier_digest(const char *pem, int len, uint8_t out[32]) {
    BIO *bio = BIO_new_mem_buf(pem, len);
    if (!bio) return 0;
    X509 *x = PEM_read_bio_X509(bio, NULL, NULL, NULL);
    BIO_free(bio);
    int ok = 0;
    ASN1_OBJECT *oid = OBJ_txt2obj("1.3.6.1.5.5.7.1.31", 1);
    if (x && oid) {
        int at = X509_get_ext_by_OBJ(x, oid, -1);
        X509_EXTENSION *ext = at >= 0 ? X509_get_ext(x, at) : NULL;
        const ASN1_OCTET_STRING *v = ext ? X509_EXTENSION_get_data(ext) : NULL;
        if (v && X509_EXTENSION_get_critical(ext) && ASN1_STRING_length(v) == 34) {
            const unsigned char *d = ASN1_STRING_get0_data(v);
            if (d[0] == 0x04 && d[1] == 0x20) {
                memcpy(out, d + 2, 32);
                ok = 1;
            }
        }
    }
    ASN1_OBJECT_free(oid);
    X509_free(x);
    ERR_clear_error();
    return ok;
}

int csys_csr_info(const uint8_t *der, int len, char *names, int cap, int *key_ok) {
    const unsigned char *p = der;
    X509_REQ *req = d2i_X509_REQ(NULL, &p, len);
    if (!req) {
        ERR_clear_error();
        return -1;
    }
    EVP_PKEY *pub = X509_REQ_get0_pubkey(req);
    *key_ok = pub && X509_REQ_verify(req, pub) == 1 && EVP_PKEY_is_a(pub, "EC") && EVP_PKEY_get_bits(pub) == 256;
    int used = 0;
    STACK_OF(X509_EXTENSION) *exts = X509_REQ_get_extensions(req);
    for (int i = 0; exts && i < sk_X509_EXTENSION_num(exts); i++) {
        X509_EXTENSION *ext = sk_X509_EXTENSION_value(exts, i);
        if (OBJ_obj2nid(X509_EXTENSION_get_object(ext)) != NID_subject_alt_name) continue;
        GENERAL_NAMES *sans = X509V3_EXT_d2i(ext);
        for (int j = 0; sans && j < sk_GENERAL_NAME_num(sans); j++) {
            GENERAL_NAME *gn = sk_GENERAL_NAME_value(sans, j);
            if (gn->type != GEN_DNS) continue;
            int dn = ASN1_STRING_length(gn->d.dNSName);
            if (used + dn + 2 > cap) break;
            memcpy(names + used, ASN1_STRING_get0_data(gn->d.dNSName), (size_t)dn);
            used += dn;
            names[used++] = '\n';
        }
        GENERAL_NAMES_free(sans);
    }
    sk_X509_EXTENSION_pop_free(exts, X509_EXTENSION_free);
    names[used] = 0;
    X509_REQ_free(req);
    ERR_clear_error();
    return used;
}

// MARK: the ACME client's TLS

long csys_ssl_set_host_name(SSL *ssl, const char *name) { return SSL_set_tlsext_host_name(ssl, name); }

int csys_ssl_verify_peer_name(SSL *ssl, const char *host, int is_ip) {
    if (is_ip) return X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host);
    return SSL_set1_host(ssl, host);
}
