// Entry point: everything lives in `EdgeCommand`.
#if canImport(Glibc)
import Glibc
#endif

exit(EdgeCommand.run(Array(CommandLine.arguments.dropFirst())))
