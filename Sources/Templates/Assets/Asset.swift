import Core

/// One static file from `public/`, embedded in the binary and served under
/// `AssetCatalog.prefix` by its content-hashed name.
public struct Asset: Sendable {
    /// The file's name in `public/` (`deepview.js`).
    public let name: String
    /// The name it is served under (`deepview.3f2a9c1e0b7d.js`).
    public let hashedName: String
    /// `Content-Type` value (`text/javascript; charset=utf-8`).
    public let contentType: String
    /// The first `EmbeddedAssets.hashHexDigits` hex digits of the SHA-256 of `bytes`.
    public let hash: String
    /// The file as it is.
    public let bytes: [UInt8]
    /// The gzip encoding of `bytes`, present only where it is smaller.
    public let gzip: [UInt8]?

    /// `/_biqli/assets/<hashedName>`, the path pages link to.
    public var path: String { AssetCatalog.prefix + hashedName }

    /// Headers for a response carrying this asset, gzip-encoded or not. The name changes with
    /// the content, so the cache lifetime is a year and `immutable`.
    public func headers(gzipped: Bool) -> [(String, String)] {
        var headers: [(String, String)] = [
            ("Content-Type", contentType),
            ("Cache-Control", "public, max-age=31536000, immutable"),
            ("X-Content-Type-Options", "nosniff"),
            // Inert if opened as a document (the SVG): no script, no plug-ins, no framing.
            ("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'; sandbox"),
        ]
        if gzip != nil { headers.append(("Vary", "Accept-Encoding")) }
        if gzipped { headers.append(("Content-Encoding", "gzip")) }
        return headers
    }

    init(embedded: EmbeddedAsset) {
        name = embedded.name
        contentType = embedded.contentType
        hash = String(embedded.sha256.prefix(EmbeddedAssets.hashHexDigits))
        bytes = Asset.decode(embedded.base64, of: embedded.name)
        gzip = embedded.gzipBase64.map { Asset.decode($0, of: embedded.name) }
        hashedName = Asset.hashedName(name, hash: hash)
    }

    /// `stem.ext` -> `stem.<hash>.ext`.
    static func hashedName(_ name: String, hash: String) -> String {
        guard let dot = name.lastIndex(of: ".") else { return name + "." + hash }
        return String(name[..<dot]) + "." + hash + String(name[dot...])
    }

    private static func decode(_ text: String, of name: String) -> [UInt8] {
        // The generator wraps lines; the newlines are not part of the data.
        guard let bytes = Base64URL.decode(String(text.filter { $0 != "\n" })) else {
            preconditionFailure("EmbeddedAssets.swift is corrupt at \(name); run scripts/gen-assets")
        }
        return bytes
    }
}

/// One generated entry of `EmbeddedAssets.files` (see `scripts/gen-assets`).
struct EmbeddedAsset: Sendable {
    let name: String
    let contentType: String
    let sha256: String
    let base64: String
    let gzipBase64: String?
}
