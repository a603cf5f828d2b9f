import Model

extension EdgeChecker {
    /// The keys that seal the webhooks' signing secrets (decision 0031): the data directory's
    /// file against what the store holds. `file`: the keyring read (nil: no file), or why it
    /// cannot be read.
    static func checkWebhookKeys(
        path: String, file: Result<WebhookKeyring?, WebhookKeyFile.Failure>, registered: [String],
        endpoints: [WebhookEndpoint]
    ) -> [CheckFinding] {
        let stored = endpoints.flatMap { e in [e.secret, e.previousSecret].compactMap { $0 } }
        let sealedWith = Set(stored.compactMap(WebhookSecretSeal.keyId))
        let plain = endpoints.filter { e in
            [e.secret, e.previousSecret].contains { $0.map { !WebhookSecretSeal.isSealed($0) } ?? false }
        }
        var out: [CheckFinding] = []
        let ring: WebhookKeyring?
        switch file {
        case .failure(let failure):
            return [
                CheckFinding(
                    severity: .error, code: "webhook_key_unreadable", subject: path, message: "\(failure).",
                    fix: "Restore the file from a backup, or copy it from another node of the fleet.")
            ]
        case .success(let read): ring = read
        }
        guard let ring else {
            guard !registered.isEmpty || !sealedWith.isEmpty else { return [] }
            let keys = Set(registered).union(sealedWith).sorted().joined(separator: ", ")
            // No endpoint yet (a fleet that does not use webhooks): nothing fails now.
            let severity: CheckFinding.Severity = stored.isEmpty ? .warning : .error
            let effect =
                stored.isEmpty
                ? "this node could store no webhook endpoint's secret"
                : "this node can sign no delivery of the \(endpoints.count) endpoint(s), nor store a new secret"
            return [
                CheckFinding(
                    severity: severity, code: "webhook_key_missing", subject: path,
                    message:
                        "The store's webhook signing secrets are sealed with keys kept in \(path) (\(keys)), which is missing: \(effect).",
                    fix:
                        "Copy the file from another node of the fleet, or restore it from the backup (biqli-edge restore). If it is lost, `biqli-edge webhook-key rotate --lost` makes a new one: then rotate every endpoint's secret (POST /api/v1/webhooks/{id}/secret/rotate with {\"overlapSeconds\":0}) and give the receivers their new secrets."
                )
            ]
        }
        let unknown = sealedWith.filter { ring.key(id: $0) == nil }.sorted()
        if !unknown.isEmpty {
            let count = stored.filter { WebhookSecretSeal.keyId($0).map(unknown.contains) ?? false }.count
            out.append(
                CheckFinding(
                    severity: .error, code: "webhook_key_unknown", subject: path,
                    message:
                        "\(count) stored signing secret(s) are sealed with \(unknown.joined(separator: ", ")), which \(path) does not hold: their deliveries are left to nodes that do.",
                    fix: "Copy the fleet's current file to this node (the edge reads it again by itself)."))
        }
        if !registered.isEmpty, !ring.ids.contains(where: registered.contains) {
            out.append(
                CheckFinding(
                    severity: .error, code: "webhook_key_not_the_stores", subject: path,
                    message:
                        "None of \(path)'s keys (\(ring.ids.joined(separator: ", "))) is one the store's secrets are sealed with (\(registered.joined(separator: ", "))): this node cannot store a new secret.",
                    fix: "Replace the file with the fleet's (from another node, or the backup)."))
        }
        if !plain.isEmpty {
            out.append(
                CheckFinding(
                    severity: .warning, code: "webhook_secrets_unsealed", subject: "webhooks",
                    message:
                        "\(plain.count) endpoint(s) keep their signing secret unsealed in the store (written by an older version, or while older nodes ran).",
                    fix:
                        "serve seals them at start-up (SQLite), or once every live node of the fleet runs this version (PostgreSQL: biqli-edge nodes)."
                ))
        }
        if out.isEmpty {
            out.append(
                .ok(
                    "webhook_keys", path,
                    "\(stored.count) signing secret(s) sealed; this node holds every key they need (\(ring.ids.joined(separator: ", ")))."
                ))
        }
        return out
    }
}
