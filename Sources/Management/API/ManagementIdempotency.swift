import Core
import Model
import Store

/// `Idempotency-Key` on writes (POST, PATCH, DELETE).
///
/// The record's scope is the secret key's id, the method and the path; its identity
/// the SHA-256 of the header; it holds the SHA-256 of the canonical body (sorted
/// keys) and the answer. Lookup, the operation and the record are one transaction on
/// the single writer, so two concurrent requests with one key cannot both run.
///
/// - same key, same request: the stored status and body, `Idempotent-Replayed: true`;
/// - same key, another body: 409 `idempotency_conflict`;
/// - only 2xx answers are stored: a refused request can be corrected and retried
///   with the same key;
/// - a body that shows a key once (app create, rotation) is stored with
///   `publishableKey: null`: the key itself is never kept in clear;
/// - records are pruned with events (`BIQLI_EDGE_RETENTION_DAYS`).
enum ManagementIdempotency {
    /// The seed's rule for the header: 8 to 100 of `A-Z a-z 0-9 . _ ~ -`.
    static func isValidKey(_ key: String) -> Bool {
        let u = key.utf8
        guard (8...100).contains(u.count) else { return false }
        return u.allSatisfy {
            ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
                || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: ".")
                || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "-")
        }
    }

    static func scope(_ call: ManagementCall) -> String {
        "mgmt " + call.secretKeyId + " " + call.method.name + " " + call.path
    }

    static func requestHash(_ call: ManagementCall) -> [UInt8] {
        SHA256.hash(call.body.map { JSONValue.object($0).canonicalBytes } ?? [])
    }

    /// Runs `operation` unless the key already answered this request.
    static func run(
        _ call: ManagementCall, _ tx: any IdempotencyWriting, _ operation: () throws -> ManagementAnswer
    ) throws -> ManagementAnswer {
        guard let key = call.idempotencyKey else { return try operation() }
        let scope = scope(call)
        let keyHash = SHA256.hash(key)
        let hash = requestHash(call)
        if let record = try tx.idempotencyRecord(scope: scope, keyHash: keyHash) {
            guard record.requestHash == hash else { throw ManagementError.idempotencyConflict }
            let body = (try? JSONParser.parse(record.body)) ?? .object([])
            var answer = ManagementAnswer(record.status, body)
            answer.replayed = true
            return answer
        }
        let answer = try operation()
        if (200..<300).contains(answer.status) {
            try tx.putIdempotencyRecord(
                IdempotencyRecord(
                    scope: scope, keyHash: keyHash, requestHash: hash, status: answer.status,
                    body: (answer.replayBody ?? answer.body).jsonBytes, createdAt: call.now))
        }
        return answer
    }
}
