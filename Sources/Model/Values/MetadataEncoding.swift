import Core

/// Metadata as it is stored: compact JSON in the writer's member order. Encoded
/// once when a link's payload (or a snapshot) is made, so that the store's writer
/// copies bytes instead of encoding the same metadata for every handoff.
enum MetadataEncoding {
    static var writer: JSONWriter { JSONWriter() }

    static func bytes(_ metadata: JSONValue) -> [UInt8] { writer.bytes(metadata) }
}
