import Model
import Store

/// A signed attribution receipt: the compact JWS as `SigningKey.sign` writes it,
/// and its `exp` in milliseconds (what the open event keeps for replays).
struct SignedReceipt: Sendable, Equatable {
    var jws: [UInt8]
    var expiresAt: Int64
}

/// A receipt's signed part (`header.payload`) and its `exp` in milliseconds: what the
/// writer stores for a match only it can decide, signed on an event loop after the commit
/// (decision 0023).
struct UnsignedReceipt: Sendable, Equatable {
    var input: [UInt8]
    var expiresAt: Int64
}

/// A receipt as the write body leaves it for the answer: signed (on a loop before the
/// write, or stored so), or still to be signed on the loop that answers.
enum ReceiptBytes: Sendable, Equatable {
    case signed([UInt8])
    case unsigned([UInt8])
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

    /// The receipt of `match` as the answer to the request of `c`, unsigned: the writer
    /// stores its input, and the loop that answers signs it.
    func prepare(_ c: ResolutionContext, match: Match) -> UnsignedReceipt {
        let claims = ReceiptClaims(
            issuer: issuer, request: c.request, appId: c.app.id, openId: c.openId, match: match, nowMillis: c.now,
            lifetimeSeconds: keyring.configuration.receiptLifetimeSeconds)
        return UnsignedReceipt(input: keyring.signingInput(claims.json, now: c.now), expiresAt: claims.expiresAt * 1000)
    }

    /// The JWS of `receipt`: as it is, or signed now (nil when its key is gone).
    func complete(_ receipt: ReceiptBytes?) -> [UInt8]? {
        switch receipt {
        case .none: return nil
        case .signed(let jws): return jws
        case .unsigned(let input): return keyring.sign(input: input)
        }
    }
}
