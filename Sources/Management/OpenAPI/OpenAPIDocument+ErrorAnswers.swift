import Core

/// An error answer of one operation that names the codes this operation can answer with
/// this status: the envelope's `error.code` narrowed to them (issue 33 item 12), so that
/// a client, schemathesis and `test_management_openapi.py` hold the document to what the
/// edge really returns.
extension OpenAPIDocument {
    static func errorAnswer(codes: [String], meaning: String, envelope: String, headers: [(String, JSONValue)])
        -> JSONValue
    {
        [
            "description": .string(codes.joined(separator: ", ") + ": " + meaning),
            "headers": .object(headers),
            "content": jsonContent([
                "allOf": [
                    schemaRef(envelope),
                    ["properties": ["error": ["properties": ["code": enumeration(codes)]]]],
                ]
            ]),
        ]
    }
}
