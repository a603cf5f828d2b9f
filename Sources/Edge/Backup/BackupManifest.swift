import Core

/// The first entry of a backup file, `biqli-edge-backup.json`: what made it, the store's
/// schema version and each file's size and SHA-256, which a restore checks before it
/// writes anything where an edge will serve.
struct BackupManifest: Equatable {
    static let entryName = "biqli-edge-backup.json"
    static let format = "biqli-edge-backup"
    static let formatVersion: Int64 = 1

    struct File: Equatable {
        var path: String
        var bytes: Int64
        var sha256: String
    }

    var edgeVersion: String
    var schemaVersion: Int
    var createdAt: Int64
    var node: String
    var files: [File]

    var json: [UInt8] {
        let value: JSONValue = .object([
            ("format", .string(Self.format)),
            ("formatVersion", .int(Self.formatVersion)),
            ("edgeVersion", .string(edgeVersion)),
            ("schemaVersion", .int(Int64(schemaVersion))),
            ("createdAt", .string(Timestamp.format(milliseconds: createdAt))),
            ("node", .string(node)),
            (
                "files",
                .array(
                    files.map {
                        .object([("path", .string($0.path)), ("bytes", .int($0.bytes)), ("sha256", .string($0.sha256))])
                    })
            ),
        ])
        return JSONWriter(pretty: true).bytes(value) + [UInt8(ascii: "\n")]
    }

    /// Why a manifest is refused.
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    init(edgeVersion: String, schemaVersion: Int, createdAt: Int64, node: String, files: [File]) {
        self.edgeVersion = edgeVersion
        self.schemaVersion = schemaVersion
        self.createdAt = createdAt
        self.node = node
        self.files = files
    }

    init(parsing bytes: [UInt8]) throws(Invalid) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw Invalid(description: "its \(Self.entryName) is not JSON")
        }
        guard value["format"]?.stringValue == Self.format else {
            throw Invalid(description: "it is not a biqli-edge backup (\(Self.entryName) names another format)")
        }
        guard let version = value["formatVersion"]?.intValue, version == Self.formatVersion else {
            throw Invalid(description: "its format version is not \(Self.formatVersion): made by a newer biqli-edge")
        }
        guard let schema = value["schemaVersion"]?.intValue, let list = value["files"]?.arrayValue else {
            throw Invalid(description: "its \(Self.entryName) lacks the schema version or the files")
        }
        var files: [File] = []
        for item in list {
            guard let path = item["path"]?.stringValue, let bytes = item["bytes"]?.intValue, bytes >= 0,
                let sha = item["sha256"]?.stringValue, sha.utf8.count == 64
            else { throw Invalid(description: "its \(Self.entryName) lists a file without path, size or SHA-256") }
            files.append(File(path: path, bytes: bytes, sha256: sha))
        }
        self.init(
            edgeVersion: value["edgeVersion"]?.stringValue ?? "", schemaVersion: Int(schema),
            createdAt: value["createdAt"]?.stringValue.flatMap(Timestamp.parse) ?? 0,
            node: value["node"]?.stringValue ?? "", files: files)
    }
}
