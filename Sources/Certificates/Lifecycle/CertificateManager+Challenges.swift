import Store

/// Answering challenges: this node's own (`ChallengeResponder`, for `ACMEOrder`), and the
/// fleet's, learnt from the store, so that whichever node the CA reaches answers.
extension CertificateManager: ChallengeResponder {
    func publish(_ challenge: ACMEChallengeRecord) throws(ACMEProblem) {
        do {
            try store.writeAndWait { tx in try tx.putACMEChallenge(challenge) }
        } catch {
            throw .local("store", "cannot keep the challenge: \(error)")
        }
        try lock.withLock { _ throws(ACMEProblem) in
            ownChallenges[challenge.token] = challenge
            lastPublished[challenge.hostname] = challenge.kind
            try install(challenge)
        }
        hooks.event(.challengePublished(hostname: challenge.hostname, kind: challenge.kind.rawValue))
        // Other nodes learn it at their next poll of the store; the CA may reach any of them.
        if settings.fleet, !pause(milliseconds: settings.storePollMilliseconds + 1_500) {
            throw .local("stopped", "the edge is stopping")
        }
    }

    func withdraw(_ challenge: ACMEChallengeRecord) {
        lock.withLock { _ in
            ownChallenges[challenge.token] = nil
            uninstall(challenge)
        }
        let token = challenge.token
        _ = try? store.writeAndWait { tx in try tx.deleteACMEChallenge(token: token) }
    }

    func pause(milliseconds: Int64) -> Bool { sleeper.sleep(milliseconds: milliseconds) }

    /// Answers `challenge` on this node: the HTTP-01 board, or a TLS-ALPN-01 certificate.
    /// With `lock` held.
    private func install(_ challenge: ACMEChallengeRecord) throws(ACMEProblem) {
        switch challenge.kind {
        case .http01:
            board.set(
                token: challenge.token, hostname: challenge.hostname, keyAuthorization: challenge.keyAuthorization)
        case .tlsALPN01:
            let pem: [UInt8]
            do {
                pem = try ChallengeCertificate.pem(
                    hostname: challenge.hostname, keyAuthorization: challenge.keyAuthorization)
            } catch {
                throw .local("crypto", error.description)
            }
            hooks.presentALPN(challenge.hostname, pem)
            alpnPresented[challenge.hostname] = challenge.token
        }
    }

    private func uninstall(_ challenge: ACMEChallengeRecord) {
        switch challenge.kind {
        case .http01:
            board.remove(token: challenge.token)
        case .tlsALPN01:
            if alpnPresented[challenge.hostname] == challenge.token {
                alpnPresented[challenge.hostname] = nil
                hooks.withdrawALPN(challenge.hostname)
            }
        }
    }

    /// Answers the challenges other nodes published, and stops answering those they
    /// withdrew (or that expired). With `lock` held.
    func syncFleetChallenges(_ stored: [ACMEChallengeRecord]) {
        let time = now()
        var current: [String: ACMEChallengeRecord] = [:]
        for challenge in stored where ownChallenges[challenge.token] == nil && challenge.expiresAt > time {
            current[challenge.token] = challenge
        }
        for (token, challenge) in remoteChallenges where current[token] == nil {
            uninstall(challenge)
        }
        for (token, challenge) in current where remoteChallenges[token] == nil {
            try? install(challenge)
        }
        remoteChallenges = current
    }
}
