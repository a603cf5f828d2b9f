import Model
import Store

/// A signed attribution receipt: the compact JWS as `SigningKey.sign` writes it,
/// and its `exp` in milliseconds (what the open event keeps for replays).
struct SignedReceipt: Sendable, Equatable {
    var jws: [UInt8]
    var expiresAt: Int64
}

/// Signs the receipt of a matched open: its claims (`ReceiptClaims`) with the
/// keyring's current key. Thread-safe; used on the loops (answers known before
/// the write) and on the writer (answers only the write body can decide). A
/// signature may start the keyring's background rotation, which is a write of its
/// own: a write body that signs and is then run again starts no second one.
struct ReceiptSigner: Sendable {
    let issuer: String
    let keyring: ReceiptKeyring

    func sign(request: OpenRequest, appId: String, openId: String, match: Match, now: Int64) -> SignedReceipt {
        let claims = ReceiptClaims(
            issuer: issuer, request: request, appId: appId, openId: openId, match: match, nowMillis: now,
            lifetimeSeconds: keyring.configuration.receiptLifetimeSeconds)
        return SignedReceipt(jws: keyring.sign(claims.json, now: now), expiresAt: claims.expiresAt * 1000)
    }

    /// The receipt of `match` as the answer to the request of `c`.
    func sign(_ c: ResolutionContext, match: Match) -> SignedReceipt {
        sign(request: c.request, appId: c.app.id, openId: c.openId, match: match, now: c.now)
    }
}
