// Entry point: everything lives in `EdgeCommand`.
import CSodium

#if canImport(Glibc)
import Glibc
#endif

// Before anything initialises libsodium (see the shim): random bytes from a per-thread
// ChaCha20 stream instead of a system call per handoff token and page nonce.
guard biqli_sodium_use_internal_random() == 0 else {
    fatalError("libsodium refused its internal random generator")
}
exit(EdgeCommand.run(Array(CommandLine.arguments.dropFirst())))
