// StoreBench: throughput of the store's durable group commit, and a writer for
// the crash test. See bench/store and bench/store-crash-test.
//
//   StoreBench bench [--seconds N] [--inflight 64] [--threads 2] [--dir DIR] [--keys random|ordered] ...
//   StoreBench crash-writer --dir DIR [--inflight 32]
//   StoreBench verify --dir DIR --acked FILE
//   StoreBench reads [--links 10000] [--lookups 1000000]

#if canImport(Glibc)
import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
let code = BenchCommand.run(arguments)
exit(code)
