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

#endif
