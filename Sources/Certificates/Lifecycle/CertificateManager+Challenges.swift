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
        try shared.withLock { s throws(ACMEProblem) in
            s.ownChallenges[challenge.token] = challenge
            s.lastPublished[challenge.hostname] = challenge.kind
            try install(challenge, in: &s)
        }
        hooks.event(.challengePublished(hostname: challenge.hostname, kind: challenge.kind.rawValue))
        // Other nodes learn it at their next poll of the store; the CA may reach any of them.
        if settings.fleet, !pause(milliseconds: settings.storePollMilliseconds + 1_500) {
            throw .local("stopped", "the edge is stopping")
        }
    }

    func withdraw(_ challenge: ACMEChallengeRecord) {
        shared.withLock { s in
            s.ownChallenges[challenge.token] = nil
            uninstall(challenge, in: &s)
        }
        let token = challenge.token
        _ = try? store.writeAndWait { tx in try tx.deleteACMEChallenge(token: token) }
    }

    func pause(milliseconds: Int64) -> Bool { sleeper.sleep(milliseconds: milliseconds) }

    /// Answers `challenge` on this node: the HTTP-01 board, or a TLS-ALPN-01 certificate.
    private func install(_ challenge: ACMEChallengeRecord, in s: inout SharedCertificateState) throws(ACMEProblem) {
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
            s.alpnPresented[challenge.hostname] = challenge.token
        }
    }

    private func uninstall(_ challenge: ACMEChallengeRecord, in s: inout SharedCertificateState) {
        switch challenge.kind {
        case .http01:
            board.remove(token: challenge.token)
        case .tlsALPN01:
            if s.alpnPresented[challenge.hostname] == challenge.token {
                s.alpnPresented[challenge.hostname] = nil
                hooks.withdrawALPN(challenge.hostname)
            }
        }
    }

    /// Answers the challenges other nodes published, and stops answering those they
    /// withdrew (or that expired).
    func syncFleetChallenges(_ stored: [ACMEChallengeRecord], in s: inout SharedCertificateState) {
        let time = now()
        var current: [String: ACMEChallengeRecord] = [:]
        for challenge in stored where s.ownChallenges[challenge.token] == nil && challenge.expiresAt > time {
            current[challenge.token] = challenge
        }
        for (token, challenge) in s.remoteChallenges where current[token] == nil {
            uninstall(challenge, in: &s)
        }
        for (token, challenge) in current where s.remoteChallenges[token] == nil {
            try? install(challenge, in: &s)
        }
        s.remoteChallenges = current
    }
}
