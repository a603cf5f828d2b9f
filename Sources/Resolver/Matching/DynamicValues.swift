/// Seed 001's rules for dynamic values taken from a link's query.
enum DynamicValues {
    static let maxValueLength = 256
    static let maxCount = 20
    static let maxReferralCodeLength = 128

    /// The query values whose keys the link allows: non-empty strings of at most
    /// 256 characters, the first occurrence of each key, at most 20, in query
    /// order. Unknown or unapproved keys are dropped.
    static func filter(_ pairs: [(String, String)], allowed: [String]) -> [(String, String)] {
        var out: [(String, String)] = []
        for (k, v) in pairs where allowed.contains(k) {
            guard !v.isEmpty, SafeText.length(v) <= maxValueLength else { continue }
            guard !out.contains(where: { $0.0 == k }) else { continue }
            out.append((k, v))
            if out.count == maxCount { break }
        }
        return out
    }

    /// A static referral code wins; else an allowed `ref` value supplies it (when
    /// it fits the response's 128-character `referralCode`).
    static func referralCode(static code: String?, dynamic: [(String, String)]) -> String? {
        if let code, !code.isEmpty { return code }
        if let ref = dynamic.first(where: { $0.0 == "ref" })?.1, SafeText.length(ref) <= maxReferralCodeLength {
            return ref
        }
        return nil
    }
}
