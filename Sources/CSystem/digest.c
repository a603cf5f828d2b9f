#include "CSystem.h"
#include <openssl/evp.h>
#include <pthread.h>

// SHA-256 through OpenSSL, which uses the CPU's SHA extensions where there are some
// (libsodium's portable code costs about three times as much for a handoff token).
// EVP_Digest would allocate a context per call; each thread keeps one instead, freed
// by the key's destructor when the thread ends. The algorithm is fetched once.

static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_key_t context_key;
static EVP_MD *sha256;

static void free_context(void *context) { EVP_MD_CTX_free(context); }

static void setup(void) {
    sha256 = EVP_MD_fetch(NULL, "SHA256", NULL);
    pthread_key_create(&context_key, free_context);
}

int csys_sha256(const void *data, size_t length, uint8_t out[32]) {
    pthread_once(&once, setup);
    if (sha256 == NULL) return -1;
    EVP_MD_CTX *context = pthread_getspecific(context_key);
    if (context == NULL) {
        context = EVP_MD_CTX_new();
        if (context == NULL || pthread_setspecific(context_key, context) != 0) {
            EVP_MD_CTX_free(context);
            return -1;
        }
    }
    unsigned int written = 0;
    static const uint8_t empty = 0;  // a NULL pointer with length 0 is not every provider's idea of valid
    if (!EVP_DigestInit_ex2(context, sha256, NULL) || !EVP_DigestUpdate(context, data ? data : &empty, length)
        || !EVP_DigestFinal_ex(context, out, &written) || written != 32) {
        return -1;
    }
    return 0;
}
