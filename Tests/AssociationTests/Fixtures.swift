import Model

enum Fixtures {
    static let fingerprintA =
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
    static let fingerprintB =
        "FA:C6:17:45:DC:09:03:78:6F:B9:ED:E6:2A:96:2B:39:9F:73:48:F0:BB:6F:89:9B:83:32:66:75:91:03:3B:9C"

    static func iosApp(
        _ n: Int, team: String = "ABCDE12345", bundle: String? = nil, domains: [String] = ["go.example.com"],
        enabled: Bool = true, webCredentials: Bool = false, appClip: String? = nil
    ) -> MobileApp {
        MobileApp(
            id: appId(n), name: "iOS \(n)", enabled: enabled,
            ios: IOSPlatform(
                teamId: team, bundleId: bundle ?? "com.example.app\(n)", webCredentials: webCredentials,
                appClipBundleId: appClip),
            domains: domains)
    }

    static func androidApp(
        _ n: Int, package: String? = nil, fingerprints: [String] = [fingerprintA],
        domains: [String] = ["go.example.com"],
        enabled: Bool = true
    ) -> MobileApp {
        MobileApp(
            id: appId(n), name: "Android \(n)", enabled: enabled,
            android: AndroidPlatform(
                packageName: package ?? "com.example.app\(n)", sha256CertFingerprints: fingerprints),
            domains: domains)
    }

    static func bothApp(_ n: Int, domains: [String] = ["go.example.com"]) -> MobileApp {
        var app = iosApp(n, domains: domains)
        app.android = AndroidPlatform(packageName: "com.example.app\(n)", sha256CertFingerprints: [fingerprintA])
        return app
    }

    /// `biq_mapp_` + a valid ULID whose order follows `n`.
    static func appId(_ n: Int) -> String {
        let digits = String(n)
        return "biq_mapp_01J" + String(repeating: "0", count: 23 - digits.count) + digits
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
