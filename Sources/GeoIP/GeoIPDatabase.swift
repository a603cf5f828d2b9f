import CMaxMindDB

/// One opened `.mmdb` file (MaxMind's GeoIP2/GeoLite2 Country or City, DB-IP's country
/// or city databases): a private copy in memory, mapped read-only by libmaxminddb, so
/// that nothing done to the file afterwards changes it, and lookups from any number of
/// threads at once are safe. Closed when the last reference goes, so a lookup that holds
/// it finishes on it even after a newer file replaced it (`GeoIPLookup`).
///
/// ```swift
/// let db = try GeoIPDatabase(path: "/var/lib/geoip/country.mmdb")
/// db.country(of: "81.2.69.142")  // "GB"
/// ```
// @unchecked: holds libmaxminddb's `MMDB_s` (C), filled by the open and only read after;
// lookups from any number of threads at once are safe on it.
public final class GeoIPDatabase: @unchecked Sendable {
    /// libmaxminddb's handle, at a stable address (it is read by every lookup).
    private let handle: UnsafeMutablePointer<MMDB_s>
    public let path: String
    /// The file's `database_type` (`GeoLite2-Country`, `DBIP-Country-Lite`...).
    public let databaseType: String
    /// When the file was built (seconds since the epoch), from its metadata.
    public let buildEpoch: UInt64

    public init(path: String) throws(GeoIPError) {
        let handle = UnsafeMutablePointer<MMDB_s>.allocate(capacity: 1)
        let rc = biqli_mmdb_open_private(path, handle)
        guard rc == MMDB_SUCCESS else {
            handle.deallocate()
            throw .unreadable(path: path, reason: String(cString: MMDB_strerror(rc)))
        }
        self.handle = handle
        self.path = path
        databaseType = handle.pointee.metadata.database_type.map { String(cString: $0) } ?? ""
        buildEpoch = handle.pointee.metadata.build_epoch
    }

    deinit {
        MMDB_close(handle)
        handle.deallocate()
    }

    /// The ISO 3166-1 alpha-2 code (upper case) of `address` (IPv4 or IPv6 text), or nil
    /// when it is not an address, is not in the file, or its record names no country.
    public func country(of address: String) -> String? {
        var code: (CChar, CChar) = (0, 0)
        let found = withUnsafeMutableBytes(of: &code) { out in
            address.withCString { biqli_mmdb_country(handle, $0, out.baseAddress!.assumingMemoryBound(to: CChar.self)) }
        }
        guard found == 2 else { return nil }
        return Self.countryCode(UInt8(bitPattern: code.0), UInt8(bitPattern: code.1))
    }

    /// Two ASCII letters as an upper-case code; nil for anything else (a damaged file
    /// must not put arbitrary bytes into the store).
    static func countryCode(_ a: UInt8, _ b: UInt8) -> String? {
        func upper(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): return c
            case UInt8(ascii: "a")...UInt8(ascii: "z"): return c - 32
            default: return nil
            }
        }
        guard let x = upper(a), let y = upper(b) else { return nil }
        return String(decoding: [x, y], as: UTF8.self)
    }
}

/// Why a GeoIP database could not be used.
public enum GeoIPError: Error, Equatable, CustomStringConvertible {
    /// Missing, unreadable, or not a MaxMind DB file (libmaxminddb's reason).
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "\(path): \(reason)"
        }
    }
}
