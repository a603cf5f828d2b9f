#include <sodium.h>

/// Selects libsodium's internal CSPRNG (ChaCha20 keyed from the kernel's generator,
/// with forward secrecy by key erasure, state per thread) instead of the default,
/// which makes a getrandom system call for every randombytes_buf: one per handoff
/// token and per page nonce on the visit path. libsodium asks for this before
/// sodium_init; the executable calls it first thing, once.
static inline int biqli_sodium_use_internal_random(void) {
    return randombytes_set_implementation(&randombytes_internal_implementation);
}
