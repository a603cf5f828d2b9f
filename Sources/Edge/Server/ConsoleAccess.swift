import Console
import Core
import Management
import Store

/// How an operator reaches the console: whether its listener is loopback-only, and the
/// one-time sign-in link `serve --demo` prints for the demo workspace key.
enum ConsoleAccess {
    /// `127.0.0.0/8` and `::1`: only this machine connects.
    static func isLoopback(_ host: String) -> Bool {
        host.hasPrefix("127.") || host == "::1" || host == "localhost"
    }

    /// A one-time link (path and query) signing in with the demo's workspace key, nil
    /// without a console or without that key (revoked by the operator).
    static func demoSignIn(_ console: Console?, store: any Store, log: Log) -> String? {
        guard let console else { return nil }
        do {
            let keys = try store.reader(loop: 0).secretKeys()
            guard let key = keys.first(where: { $0.name == DemoData.secretKeyName && $0.revokedAt == nil }) else {
                return nil
            }
            return try console.makeSignInLink(secretKeyId: key.id)
        } catch {
            log.error("cannot make the console sign-in link", [("detail", .string("\(error)"))])
            return nil
        }
    }
}
