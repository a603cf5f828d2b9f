#include "CSystem.h"
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/random.h>

// Secret random bytes (handoff tokens, CSP nonces) from the kernel's CSPRNG, drawn in
// blocks into a pool per thread. libsodium's and OpenSSL's generators both call getpid()
// on every request (their fork check): one system call per Android visit, for 26 bytes.
// Here a visit takes its bytes from the pool; one getrandom() refills it for about
// twenty visits. Bytes handed out are wiped from the pool at once, and a fork empties
// the forking thread's pool (the child's only thread), so no two processes share bytes.

enum { POOL_BYTES = 512 };

static _Thread_local struct {
    uint8_t bytes[POOL_BYTES];
    size_t next;  // bytes before `next` are used (and zero); POOL_BYTES when empty
    int ready;
} pool;

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void forget_after_fork(void) {
    explicit_bzero(pool.bytes, sizeof pool.bytes);
    pool.next = POOL_BYTES;
}

static void install_atfork(void) { pthread_atfork(NULL, NULL, forget_after_fork); }

static int fill_from_kernel(uint8_t *out, size_t count) {
    while (count > 0) {
        ssize_t got = getrandom(out, count, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        out += got;
        count -= (size_t)got;
    }
    return 0;
}

int csys_random_bytes(void *out, size_t count) {
    if (!pool.ready) {
        pthread_once(&atfork_once, install_atfork);
        pool.next = POOL_BYTES;
        pool.ready = 1;
    }
    if (count > POOL_BYTES / 4) return fill_from_kernel(out, count);
    if (POOL_BYTES - pool.next < count) {
        if (fill_from_kernel(pool.bytes, POOL_BYTES) != 0) {
            explicit_bzero(pool.bytes, sizeof pool.bytes);
            pool.next = POOL_BYTES;
            return -1;
        }
        pool.next = 0;
    }
    memcpy(out, pool.bytes + pool.next, count);
    explicit_bzero(pool.bytes + pool.next, count);
    pool.next += count;
    return 0;
}
