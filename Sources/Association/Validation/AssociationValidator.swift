import Model

/// The write-time rules for everything that ends up in an association file.
///
/// Called by the management API and `apply` when an app is saved, and by the
/// renderer and the checker (through the non-throwing predicates) so that the
/// three can never disagree about what is valid.
public enum AssociationValidator {
    /// Longest bundle ID accepted (App Store Connect's limit for bundle identifiers).
    public static let maxBundleIDLength = 155
    /// Longest Android package name accepted (a sanity bound; real ones are far shorter).
    public static let maxPackageNameLength = 255
    /// Most signing-certificate fingerprints per Android app (upload, app signing, rotation, debug...).
    public static let maxFingerprints = 16

    public static let teamIDRule = "must match ^[A-Z0-9]{10}$"
    public static let bundleIDRule =
        "must be 1 to 155 characters of A-Z, a-z, 0-9, '-' and '.', in reverse-DNS form (no empty part, no leading or trailing dot)"
    public static let packageNameRule =
        #"must match ^[a-zA-Z][a-zA-Z0-9_]*(\.[a-zA-Z][a-zA-Z0-9_]*)+$ (at most 255 characters)"#
    public static let fingerprintRule =
        "must be a SHA-256 signing-certificate fingerprint: 32 bytes in hex, colon-separated or not (e.g. 14:6D:E9:...:D8)"

    // MARK: Predicates (no allocation beyond the input's UTF-8 view)

    public static func isValidTeamID(_ text: String) -> Bool {
        let u = text.utf8
        return u.count == 10 && u.allSatisfy { isUpper($0) || isDigit($0) }
    }

    public static func isValidBundleID(_ text: String) -> Bool {
        let u = text.utf8
        guard !u.isEmpty, u.count <= maxBundleIDLength else { return false }
        var previous: UInt8 = UInt8(ascii: ".")
        for c in u {
            let ok = isUpper(c) || isLower(c) || isDigit(c) || c == UInt8(ascii: "-") || c == UInt8(ascii: ".")
            if !ok { return false }
            if c == UInt8(ascii: ".") && previous == UInt8(ascii: ".") { return false }
            previous = c
        }
        return previous != UInt8(ascii: ".")
    }

    public static func isValidPackageName(_ text: String) -> Bool {
        let u = text.utf8
        guard u.count <= maxPackageNameLength else { return false }
        var segments = 0
        var atSegmentStart = true
        for c in u {
            if atSegmentStart {
                guard isUpper(c) || isLower(c) else { return false }
                atSegmentStart = false
                segments += 1
            } else if c == UInt8(ascii: ".") {
                atSegmentStart = true
            } else if !(isUpper(c) || isLower(c) || isDigit(c) || c == UInt8(ascii: "_")) {
                return false
            }
        }
        return segments >= 2 && !atSegmentStart
    }

    /// True when `text` is already in the form assetlinks needs (`^([0-9A-F]{2}:){31}[0-9A-F]{2}$`).
    public static func isNormalizedFingerprint(_ text: String) -> Bool {
        let u = Array(text.utf8)
        guard u.count == 95 else { return false }
        for (i, c) in u.enumerated() {
            if i % 3 == 2 {
                if c != UInt8(ascii: ":") { return false }
            } else if !(isDigit(c) || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(c)) {
                return false
            }
        }
        return true
    }

    /// True when `key` is a link key an AASA component may name as is: the link-key rule
    /// `^[A-Za-z0-9_-]{1,64}$`, so no `*` or `?` (Apple's wildcards), no `/` and nothing
    /// to percent-encode.
    public static func isClaimableKey(_ key: String) -> Bool {
        let u = key.utf8
        return !u.isEmpty && u.count <= 64
            && u.allSatisfy {
                isUpper($0) || isLower($0) || isDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
            }
    }

    // MARK: Throwing checks, for saves

    public static func validateTeamID(_ text: String, field: String = "ios.teamId") throws(AssociationValidationError) {
        if !isValidTeamID(text) { throw .field(field, teamIDRule) }
    }

    public static func validateBundleID(_ text: String, field: String = "ios.bundleId")
        throws(AssociationValidationError)
    {
        if !isValidBundleID(text) { throw .field(field, bundleIDRule) }
    }

    public static func validatePackageName(_ text: String, field: String = "android.packageName")
        throws(AssociationValidationError)
    {
        if !isValidPackageName(text) { throw .field(field, packageNameRule) }
    }

    /// The fingerprint in assetlinks form: upper-case hex pairs joined by `:`.
    ///
    /// Accepts what the tools print: Play Console and keytool (`SHA256: 14:6D:...`, the
    /// label is dropped), apksigner (64 lower-case hex digits), pairs separated by
    /// spaces. Separators, when present, must be one kind and sit between every pair.
    /// A 20-byte value is a SHA-1 fingerprint and is refused with a message saying so.
    public static func normalizedFingerprint(_ text: String, field: String = "android.sha256CertFingerprints")
        throws(AssociationValidationError) -> String
    {
        guard let nibbles = fingerprintNibbles(text) else { throw .field(field, fingerprintRule) }
        if nibbles.count == 40 {
            throw .field(
                field, "looks like a SHA-1 fingerprint (20 bytes); assetlinks needs the SHA-256 one (32 bytes)")
        }
        guard nibbles.count == 64 else { throw .field(field, fingerprintRule) }
        let digits: [UInt8] = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(95)
        for i in stride(from: 0, to: 64, by: 2) {
            if i > 0 { out.append(UInt8(ascii: ":")) }
            out.append(digits[Int(nibbles[i])])
            out.append(digits[Int(nibbles[i + 1])])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Hex digit values of a fingerprint in any accepted spelling, or nil when the
    /// spelling is not accepted (odd digit count, stray characters, misplaced separators).
    static func fingerprintNibbles(_ text: String) -> [UInt8]? {
        var u = Substring(text).utf8.drop { isSpace($0) }
        while let last = u.last, isSpace(last) { u = u.dropLast() }
        for label in ["sha256:", "sha-256:"] where hasPrefixIgnoringCase(u, label) {
            u = u.dropFirst(label.utf8.count).drop { isSpace($0) }
        }
        var nibbles: [UInt8] = []
        nibbles.reserveCapacity(64)
        var separator: UInt8? = nil
        var separators = 0
        var lastWasSeparator = false
        for c in u {
            if let v = hexValue(c) {
                nibbles.append(v)
                lastWasSeparator = false
                continue
            }
            guard c == UInt8(ascii: ":") || c == UInt8(ascii: " ") else { return nil }
            // A separator only between two complete bytes, always the same character.
            guard !nibbles.isEmpty, nibbles.count % 2 == 0, !lastWasSeparator, separator == nil || separator == c
            else { return nil }
            separator = c
            separators += 1
            lastWasSeparator = true
        }
        if lastWasSeparator || nibbles.count % 2 != 0 { return nil }
        if separators != 0 && separators != nibbles.count / 2 - 1 { return nil }
        return nibbles
    }

    // MARK: Whole platforms and apps

    public static func validated(_ ios: IOSPlatform) throws(AssociationValidationError) -> IOSPlatform {
        try validateTeamID(ios.teamId)
        try validateBundleID(ios.bundleId)
        if let clip = ios.appClipBundleId {
            try validateBundleID(clip, field: "ios.appClipBundleId")
            if clip.lowercased() == ios.bundleId.lowercased() {
                throw .field("ios.appClipBundleId", "must differ from ios.bundleId")
            }
        }
        return ios
    }

    /// The platform with its fingerprints normalised, duplicates removed (first kept).
    public static func validated(_ android: AndroidPlatform) throws(AssociationValidationError) -> AndroidPlatform {
        try validatePackageName(android.packageName)
        if android.sha256CertFingerprints.count > maxFingerprints {
            throw .field("android.sha256CertFingerprints", "must hold at most \(maxFingerprints) fingerprints")
        }
        var out = android
        out.sha256CertFingerprints = []
        for (i, raw) in android.sha256CertFingerprints.enumerated() {
            let fp = try normalizedFingerprint(raw, field: "android.sha256CertFingerprints[\(i)]")
            if !out.sha256CertFingerprints.contains(fp) { out.sha256CertFingerprints.append(fp) }
        }
        return out
    }

    /// The app as it should be stored (fingerprints normalised), or the first broken rule.
    public static func validated(_ app: MobileApp) throws(AssociationValidationError) -> MobileApp {
        var out = app
        if let ios = app.ios { out.ios = try validated(ios) }
        if let android = app.android { out.android = try validated(android) }
        return out
    }

    // MARK: Character classes

    @inline(__always) static func isUpper(_ c: UInt8) -> Bool { c >= 0x41 && c <= 0x5A }
    @inline(__always) static func isLower(_ c: UInt8) -> Bool { c >= 0x61 && c <= 0x7A }
    @inline(__always) static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    @inline(__always) static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

    static func hexValue(_ c: UInt8) -> UInt8? {
        if isDigit(c) { return c - 0x30 }
        if c >= 0x41 && c <= 0x46 { return c - 0x41 + 10 }
        if c >= 0x61 && c <= 0x66 { return c - 0x61 + 10 }
        return nil
    }

    static func hasPrefixIgnoringCase(_ u: Substring.UTF8View, _ lowerPrefix: String) -> Bool {
        var it = u.makeIterator()
        for p in lowerPrefix.utf8 {
            guard let c = it.next() else { return false }
            if (isUpper(c) ? c | 0x20 : c) != p { return false }
        }
        return true
    }
}
