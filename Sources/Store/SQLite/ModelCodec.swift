import Core
import Model

/// JSON forms of the model parts stored in one column: platform settings,
/// dynamic values (ordered pairs), string lists, metadata.
///
/// Decoding is lenient about missing members (the model's defaults apply), so a
/// later schema can add a setting without rewriting every row.
enum ModelCodec {
    static var writer: JSONWriter { JSONWriter() }

    // MARK: iOS / Android

    static func encode(_ ios: IOSPlatform) -> [UInt8] {
        writer.bytes(
            .object([
                ("teamId", .string(ios.teamId)),
                ("bundleId", .string(ios.bundleId)),
                ("appStoreId", .string(orNull: ios.appStoreId)),
                ("testFlightUrl", .string(orNull: ios.testFlightUrl)),
                ("fallbackUrl", .string(orNull: ios.fallbackUrl)),
                ("probabilisticFallback", .bool(ios.probabilisticFallback)),
                ("probabilisticWindowMinutes", .int(Int64(ios.probabilisticWindowMinutes))),
                ("sdkEnabled", .bool(ios.sdkEnabled)),
                ("webCredentials", .bool(ios.webCredentials)),
                ("appClipBundleId", .string(orNull: ios.appClipBundleId)),
            ]))
    }

    static func decodeIOS(_ bytes: UnsafeRawBufferPointer) throws(StoreError) -> IOSPlatform {
        let v = try parse(bytes, column: "ios")
        return IOSPlatform(
            teamId: v["teamId"]?.stringValue ?? "",
            bundleId: v["bundleId"]?.stringValue ?? "",
            appStoreId: v["appStoreId"]?.stringValue,
            testFlightUrl: v["testFlightUrl"]?.stringValue,
            fallbackUrl: v["fallbackUrl"]?.stringValue,
            probabilisticFallback: v["probabilisticFallback"]?.boolValue ?? false,
            probabilisticWindowMinutes: (v["probabilisticWindowMinutes"]?.intValue).map { Int($0) } ?? 60,
            sdkEnabled: v["sdkEnabled"]?.boolValue ?? true,
            webCredentials: v["webCredentials"]?.boolValue ?? false,
            appClipBundleId: v["appClipBundleId"]?.stringValue)
    }

    static func encode(_ android: AndroidPlatform) -> [UInt8] {
        writer.bytes(
            .object([
                ("packageName", .string(android.packageName)),
                ("sha256CertFingerprints", .array(android.sha256CertFingerprints.map(JSONValue.string))),
                ("playStoreUrl", .string(orNull: android.playStoreUrl)),
                ("fallbackUrl", .string(orNull: android.fallbackUrl)),
                ("sdkEnabled", .bool(android.sdkEnabled)),
            ]))
    }

    static func decodeAndroid(_ bytes: UnsafeRawBufferPointer) throws(StoreError) -> AndroidPlatform {
        let v = try parse(bytes, column: "android")
        return AndroidPlatform(
            packageName: v["packageName"]?.stringValue ?? "",
            sha256CertFingerprints: (v["sha256CertFingerprints"]?.arrayValue ?? []).compactMap(\.stringValue),
            playStoreUrl: v["playStoreUrl"]?.stringValue,
            fallbackUrl: v["fallbackUrl"]?.stringValue,
            sdkEnabled: v["sdkEnabled"]?.boolValue ?? true)
    }

    // MARK: dynamic values and lists

    /// `[["key","value"],...]`: order and repeated keys survive, unlike an object.
    static func encode(pairs: [(String, String)]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(16 + pairs.count * 24)
        encode(pairs: pairs, into: &out)
        return out
    }

    /// `encode(pairs:)` appended to `out` (the writer reuses one buffer).
    static func encode(pairs: [(String, String)], into out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (i, (k, v)) in pairs.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "["))
            JSONWriter.writeString(k, into: &out)
            out.append(UInt8(ascii: ","))
            JSONWriter.writeString(v, into: &out)
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "]"))
    }

    static func decodePairs(_ bytes: UnsafeRawBufferPointer) throws(StoreError) -> [(String, String)] {
        guard let items = try parse(bytes, column: "dynamic").arrayValue else { throw corrupt("dynamic") }
        var pairs: [(String, String)] = []
        pairs.reserveCapacity(items.count)
        for item in items {
            guard let pair = item.arrayValue, pair.count == 2, let k = pair[0].stringValue,
                let v = pair[1].stringValue
            else { throw corrupt("dynamic") }
            pairs.append((k, v))
        }
        return pairs
    }

    static func encode(strings: [String]) -> [UInt8] {
        writer.bytes(.array(strings.map(JSONValue.string)))
    }

    static func decodeStrings(_ bytes: UnsafeRawBufferPointer, column: String) throws(StoreError) -> [String] {
        guard let items = try parse(bytes, column: column).arrayValue else { throw corrupt(column) }
        return items.compactMap(\.stringValue)
    }

    // MARK: metadata

    static func encode(json: JSONValue) -> [UInt8] { writer.bytes(json) }

    /// `encode(json:)` appended to `out`; `{}`, the usual metadata, without the writer.
    static func encode(json: JSONValue, into out: inout [UInt8]) {
        if case .object(let members) = json, members.isEmpty {
            out.append(UInt8(ascii: "{"))
            out.append(UInt8(ascii: "}"))
        } else {
            writer.write(json, into: &out)
        }
    }

    /// `{}` is by far the most common metadata: skip the parser for it.
    static func decodeJSON(_ bytes: UnsafeRawBufferPointer, column: String) throws(StoreError) -> JSONValue {
        if bytes.count == 2, bytes[0] == UInt8(ascii: "{"), bytes[1] == UInt8(ascii: "}") { return .object([]) }
        return try parse(bytes, column: column)
    }

    // MARK: helpers

    private static func parse(_ bytes: UnsafeRawBufferPointer, column: String) throws(StoreError) -> JSONValue {
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw corrupt(column)
        }
    }

    static func corrupt(_ column: String) -> StoreError {
        .backend(code: 11, message: "stored JSON in column \(column) is not valid")  // 11 = SQLITE_CORRUPT
    }
}
