// What Swift's Glibc overlay does not expose: epoll, eventfd, accept4, inotify,
// relaxed atomics for per-loop counters, and OpenSSL 3's function-like macros.
#ifndef BIQLI_CSYSTEM_H
#define BIQLI_CSYSTEM_H

#include <stdint.h>
#include <stddef.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <openssl/ssl.h>

// MARK: sockets and epoll

int csys_accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags);
int csys_epoll_create(void);
int csys_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data);
/// Waits and copies events into two parallel arrays so Swift never sees the packed struct.
int csys_epoll_wait(int epfd, uint32_t *events, uint64_t *data, int max, int timeout_ms);
int csys_eventfd(void);
int csys_inotify_watch_dir(const char *path, int *watch_out);

static const uint32_t CSYS_EPOLLIN = EPOLLIN;
static const uint32_t CSYS_EPOLLOUT = EPOLLOUT;
static const uint32_t CSYS_EPOLLERR = EPOLLERR;
static const uint32_t CSYS_EPOLLHUP = EPOLLHUP;
static const uint32_t CSYS_EPOLLRDHUP = EPOLLRDHUP;
static const int CSYS_SOCK_NONBLOCK = SOCK_NONBLOCK;
static const int CSYS_SOCK_CLOEXEC = SOCK_CLOEXEC;
static const int CSYS_MSG_NOSIGNAL = MSG_NOSIGNAL;
static const int CSYS_MSG_PEEK = MSG_PEEK;

/// Sets the calling thread's name (shows in top -H and gdb).
void csys_set_thread_name(const char *name);
/// Gives the calling thread (only) the nice value `nice` (19: the lowest); 0 or -1 and errno.
int csys_lower_thread_priority(int nice);
/// The event loop the calling thread runs (a thread-local), or -1 for a thread that runs none.
int csys_loop_index(void);
void csys_set_loop_index(int index);

/// SHA-256 of `length` bytes into `out` (OpenSSL, SHA extensions where the CPU has them,
/// a context per thread). 0 on success, -1 when OpenSSL fails.
int csys_sha256(const void *data, size_t length, uint8_t out[32]);

/// `count` secret random bytes from the kernel's CSPRNG (getrandom), through a pool per
/// thread that is refilled in blocks and wiped as it is used (random.c). 0, or -1.
int csys_random_bytes(void *out, size_t count);

// MARK: relaxed atomics (single writer, many readers) for metrics

static inline void csys_atomic_add_u64(uint64_t *p, uint64_t v) { __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
static inline uint64_t csys_atomic_load_u64(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static inline void csys_atomic_store_u64(uint64_t *p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
static inline int64_t csys_atomic_add_i64(int64_t *p, int64_t v) { return __atomic_add_fetch(p, v, __ATOMIC_RELAXED); }
static inline int64_t csys_atomic_load_i64(const int64_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
/// Acquire/release pointer publication, for read-mostly snapshots swapped by one writer.
static inline void *csys_atomic_load_ptr(void *const *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static inline void csys_atomic_store_ptr(void **p, void *v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
static inline void *csys_atomic_exchange_ptr(void **p, void *v) { return __atomic_exchange_n(p, v, __ATOMIC_ACQ_REL); }

// MARK: OpenSSL macros

typedef int (*csys_servername_cb)(SSL *ssl, int *alert, void *arg);
long csys_ssl_ctx_set_servername_callback(SSL_CTX *ctx, csys_servername_cb cb);
long csys_ssl_ctx_set_servername_arg(SSL_CTX *ctx, void *arg);
long csys_ssl_ctx_set_min_proto_tls12(SSL_CTX *ctx);
long csys_ssl_ctx_set_session_cache_server(SSL_CTX *ctx);
long csys_ssl_ctx_set_groups(SSL_CTX *ctx, const char *list);
long csys_ssl_ctx_set_mode_defaults(SSL_CTX *ctx);
uint64_t csys_ssl_ctx_set_options_defaults(SSL_CTX *ctx);
/// Installs an ALPN selector that accepts only "http/1.1".
void csys_ssl_ctx_set_alpn_http11(SSL_CTX *ctx);
int csys_ssl_ctx_set_session_id_context(SSL_CTX *ctx);
const char *csys_ssl_get_servername(const SSL *ssl);
/// 1 when the certificate in `ctx` is valid at `now` (notBefore <= now < notAfter), 0 otherwise.
int csys_ssl_ctx_cert_valid_now(SSL_CTX *ctx);
/// notAfter of the certificate in `ctx` as Unix seconds, or -1.
long long csys_ssl_ctx_cert_not_after(SSL_CTX *ctx);
/// Writes the subject CN and DNS SANs of the loaded certificate, '\n'-separated, into buf.
int csys_ssl_ctx_cert_names(SSL_CTX *ctx, char *buf, int len);
/// Generates a self-signed ECDSA P-256 certificate for the given '\n'-separated DNS names
/// and writes certificate then private key, PEM, to `path`. Returns 1 on success.
int csys_write_self_signed_pem(const char *path, const char *names, int days);

// MARK: TLS-ALPN-01 and certificates from memory (the HTTP module's side)

/// Notes, on every handshake of `ctx`, whether the client offers the ALPN protocol
/// "acme-tls/1" (a client-hello callback; read with csys_ssl_offered_acme_alpn).
void csys_ssl_ctx_watch_acme_alpn(SSL_CTX *ctx);
/// 1 when the client of `ssl` offered "acme-tls/1" (needs csys_ssl_ctx_watch_acme_alpn).
int csys_ssl_offered_acme_alpn(SSL *ssl);
/// An ALPN selector that accepts "acme-tls/1" only and fails the handshake otherwise.
void csys_ssl_ctx_set_alpn_acme_only(SSL_CTX *ctx);
/// Loads a PEM (certificate chain, then the private key) from memory into `ctx`:
/// 0 done, 1 no usable certificate, 2 no usable key, 3 the key does not match.
int csys_ssl_ctx_use_pem(SSL_CTX *ctx, const char *pem, int len);
/// 1 when the certificate in `ctx` is issued by itself (self-signed).
int csys_ssl_ctx_cert_self_issued(SSL_CTX *ctx);
/// The issuer of the certificate in `ctx` (RFC 2253 text) into buf; its length or -1.
int csys_ssl_ctx_cert_issuer(SSL_CTX *ctx, char *buf, int len);

// MARK: keys, signatures and X.509 for the ACME client (x509.c)

EVP_PKEY *csys_ec_p256_generate(void);
void csys_pkey_free(EVP_PKEY *key);
/// The private key as PEM (PKCS#8) into buf: its length, or -1.
int csys_pkey_private_pem(EVP_PKEY *key, char *buf, int cap);
/// A private key from PEM, or NULL.
EVP_PKEY *csys_pkey_from_pem(const char *pem, int len);
/// The P-256 public point's coordinates, 32 bytes each. 1 on success.
int csys_ec_public_xy(EVP_PKEY *key, uint8_t x[32], uint8_t y[32]);
/// ECDSA P-256 with SHA-256, the signature as JWS wants it: r || s, 32 bytes each. 1 on success.
int csys_es256_sign(EVP_PKEY *key, const uint8_t *data, size_t len, uint8_t sig[64]);
/// 1 when `sig` (r || s) is a valid ES256 signature of `data` by `key`.
int csys_es256_verify(EVP_PKEY *key, const uint8_t *data, size_t len, const uint8_t sig[64]);
int csys_hmac_sha256(const uint8_t *key, size_t keylen, const uint8_t *data, size_t len, uint8_t out[32]);
/// A certificate signing request (DER) for the '\n'-separated DNS names, signed by `key`:
/// its length, or -1.
int csys_csr_der(EVP_PKEY *key, const char *names, uint8_t *out, int cap);
/// What a CSR says: its DNS SANs ('\n'-separated, into names; the return value is their
/// length, -1 when unreadable) and whether it is signed by its own ECDSA P-256 key.
int csys_csr_info(const uint8_t *der, int len, char *names, int cap, int *key_ok);
/// A TLS-ALPN-01 challenge certificate (RFC 8737) for `name` with the critical
/// acmeIdentifier extension holding `digest`, and its fresh key, as PEM into out.
int csys_alpn_challenge_pem(const char *name, const uint8_t digest[32], char *out, int cap);
/// The acmeIdentifier digest of a PEM certificate (critical, 32 bytes). 1 when found.
int csys_acme_identifier_digest(const char *pem, int len, uint8_t out[32]);

struct csys_cert_info {
    long long not_before;
    long long not_after;
    int self_issued;
    char issuer[512];
    char names[4096];
    uint8_t serial[64];
    int serial_len;
    uint8_t aki[64];
    int aki_len;
};
/// Reads the first certificate of a PEM. 1 on success.
int csys_cert_info(const char *pem, int len, struct csys_cert_info *info);
/// 1 when the first certificate of `pem` belongs to `key`.
int csys_cert_matches_key(const char *pem, int len, EVP_PKEY *key);
long csys_ssl_set_host_name(SSL *ssl, const char *name);
/// Makes the handshake check the peer's certificate for `host` (a DNS name, or an IP address when `is_ip`).
int csys_ssl_verify_peer_name(SSL *ssl, const char *host, int is_ip);

#endif
