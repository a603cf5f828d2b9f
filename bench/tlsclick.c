/*
 * tlsclick: a load generator for real clicks (issue 24, item 3): every request on a new
 * TCP connection with a full TLS 1.3 handshake (X25519, an ECDSA signature), no session
 * resumption, one request, then close. wrk cannot measure that: Debian's wrk 4.1
 * negotiates TLS 1.2 and resumes its previous session on every reconnection (SSL_clear
 * keeps it), so its "handshake per request" row is an abbreviated TLS 1.2 handshake.
 *
 * Usage: tlsclick HOST PORT SNI SECONDS CONNECTIONS THREADS REQUEST_FILE
 * Prints one JSON object: requests, rps, p50/p99 in ms, errors, responses by class,
 * the TLS versions and resumptions seen (to prove what was measured).
 *
 * Built by bench/clicks.py with gcc against Debian's libssl (the same OpenSSL the edge
 * and nginx use). Loopback only, bounded by SECONDS.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum phase { HANDSHAKE, WRITING, READING };

struct conn {
    int fd;
    SSL *ssl;
    enum phase phase;
    size_t sent, got;
    uint64_t started;
    char buf[16384];
};

struct worker {
    pthread_t thread;
    int connections;
    uint64_t requests, errors, status3xx, status_other, tls13, resumed;
    uint32_t *latencies; /* microseconds, one per completed request */
    size_t count, capacity;
};

static struct sockaddr_in server;
static const char *sni;
static char *request;
static size_t request_len;
static SSL_CTX *ctx;
static uint64_t deadline;

static uint64_t now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000u + (uint64_t)t.tv_nsec / 1000u;
}

static void record(struct worker *w, uint64_t us) {
    if (w->count == w->capacity) {
        w->capacity = w->capacity ? w->capacity * 2 : 65536;
        w->latencies = realloc(w->latencies, w->capacity * sizeof *w->latencies);
        if (!w->latencies) abort();
    }
    w->latencies[w->count++] = (uint32_t)(us > UINT32_MAX ? UINT32_MAX : us);
}

/* A new connection in `c`, registered with `ep`; 0 when it could not be made. */
static int start(struct conn *c, int ep) {
    c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (c->fd < 0) return 0;
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(c->fd, (struct sockaddr *)&server, sizeof server) < 0 && errno != EINPROGRESS) {
        close(c->fd);
        return 0;
    }
    c->ssl = SSL_new(ctx);
    SSL_set_fd(c->ssl, c->fd);
    SSL_set_tlsext_host_name(c->ssl, sni);
    SSL_set_connect_state(c->ssl);
    c->phase = HANDSHAKE;
    c->sent = c->got = 0;
    c->started = now_us();
    struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT | EPOLLET, .data.ptr = c};
    epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &ev);
    return 1;
}

static void finish(struct conn *c, int ep) {
    epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
    SSL_shutdown(c->ssl); /* close_notify, as a browser closing the tab's socket; no wait */
    SSL_free(c->ssl);
    close(c->fd);
}

/* Whether the response in c->buf is complete: headers and Content-Length bytes of body. */
static int complete(struct conn *c) {
    char *end = memmem(c->buf, c->got, "\r\n\r\n", 4);
    if (!end) return 0;
    size_t head = (size_t)(end - c->buf) + 4;
    size_t length = 0;
    for (char *p = c->buf; p < end; p++) {
        if ((p == c->buf || p[-1] == '\n') && strncasecmp(p, "content-length:", 15) == 0) {
            length = strtoul(p + 15, NULL, 10);
            break;
        }
    }
    return c->got >= head + length;
}

/* Advances `c` as far as it goes; 1 when its request is done (or failed), else 0. */
static int step(struct worker *w, struct conn *c) {
    for (;;) {
        int r = 0;
        switch (c->phase) {
        case HANDSHAKE:
            r = SSL_do_handshake(c->ssl);
            if (r == 1) {
                c->phase = WRITING;
                if (SSL_version(c->ssl) == TLS1_3_VERSION) w->tls13++;
                if (SSL_session_reused(c->ssl)) w->resumed++;
                continue;
            }
            break;
        case WRITING:
            r = SSL_write(c->ssl, request + c->sent, (int)(request_len - c->sent));
            if (r > 0) {
                c->sent += (size_t)r;
                if (c->sent == request_len) c->phase = READING;
                continue;
            }
            break;
        case READING:
            r = SSL_read(c->ssl, c->buf + c->got, (int)(sizeof c->buf - c->got));
            if (r > 0) {
                c->got += (size_t)r;
                if (complete(c)) {
                    w->requests++;
                    if (c->got > 9 && c->buf[9] == '3') w->status3xx++;
                    else w->status_other++;
                    record(w, now_us() - c->started);
                    return 1;
                }
                if (c->got == sizeof c->buf) { w->errors++; return 1; }
                continue;
            }
            break;
        }
        int e = SSL_get_error(c->ssl, r);
        if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) return 0;
        w->errors++;
        ERR_clear_error();
        return 1;
    }
}

static void *run(void *arg) {
    struct worker *w = arg;
    int ep = epoll_create1(0);
    struct conn *conns = calloc((size_t)w->connections, sizeof *conns);
    for (int i = 0; i < w->connections; i++)
        if (!start(&conns[i], ep)) w->errors++;
    struct epoll_event events[256];
    while (now_us() < deadline) {
        int n = epoll_wait(ep, events, 256, 100);
        for (int i = 0; i < n; i++) {
            struct conn *c = events[i].data.ptr;
            if (step(w, c)) {
                finish(c, ep);
                if (now_us() < deadline && !start(c, ep)) w->errors++;
            }
        }
    }
    close(ep);
    return NULL;
}

static int by_value(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc != 8) {
        fprintf(stderr, "usage: %s HOST PORT SNI SECONDS CONNECTIONS THREADS REQUEST_FILE\n", argv[0]);
        return 2;
    }
    server.sin_family = AF_INET;
    server.sin_port = htons((uint16_t)atoi(argv[2]));
    if (inet_pton(AF_INET, argv[1], &server.sin_addr) != 1) return 2;
    sni = argv[3];
    int seconds = atoi(argv[4]), connections = atoi(argv[5]), threads = atoi(argv[6]);
    FILE *f = fopen(argv[7], "rb");
    if (!f) return 2;
    request = malloc(65536);
    request_len = fread(request, 1, 65536, f);
    fclose(f);

    ctx = SSL_CTX_new(TLS_client_method());
    SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION);
    SSL_CTX_set_max_proto_version(ctx, TLS1_3_VERSION);
    SSL_CTX_set1_groups_list(ctx, "X25519");
    SSL_CTX_set1_sigalgs_list(ctx, "ECDSA+SHA256");
    SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL); /* a self-signed test certificate */
    SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF); /* every visitor is new */

    struct worker *workers = calloc((size_t)threads, sizeof *workers);
    uint64_t begin = now_us();
    deadline = begin + (uint64_t)seconds * 1000000u;
    for (int i = 0; i < threads; i++) {
        workers[i].connections = connections / threads + (i < connections % threads);
        pthread_create(&workers[i].thread, NULL, run, &workers[i]);
    }
    uint64_t requests = 0, errors = 0, s3 = 0, other = 0, tls13 = 0, resumed = 0;
    size_t total = 0;
    for (int i = 0; i < threads; i++) {
        pthread_join(workers[i].thread, NULL);
        requests += workers[i].requests;
        errors += workers[i].errors;
        s3 += workers[i].status3xx;
        other += workers[i].status_other;
        tls13 += workers[i].tls13;
        resumed += workers[i].resumed;
        total += workers[i].count;
    }
    double elapsed = (double)(now_us() - begin) / 1e6;
    uint32_t *all = malloc((total ? total : 1) * sizeof *all);
    size_t at = 0;
    for (int i = 0; i < threads; i++) {
        memcpy(all + at, workers[i].latencies, workers[i].count * sizeof *all);
        at += workers[i].count;
    }
    qsort(all, total, sizeof *all, by_value);
    double p50 = total ? all[total / 2] / 1000.0 : 0, p99 = total ? all[total * 99 / 100] / 1000.0 : 0;
    printf("{\"requests\": %llu, \"seconds\": %.3f, \"rps\": %.1f, \"p50_ms\": %.3f, \"p99_ms\": %.3f, "
           "\"errors\": %llu, \"status_3xx\": %llu, \"status_other\": %llu, \"tls13\": %llu, \"resumed\": %llu}\n",
           (unsigned long long)requests, elapsed, (double)requests / elapsed, p50, p99,
           (unsigned long long)errors, (unsigned long long)s3, (unsigned long long)other,
           (unsigned long long)tls13, (unsigned long long)resumed);
    return 0;
}
