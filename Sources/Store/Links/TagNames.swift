/// How the store compares tags' names: a name's key is the name lowercased by the edge
/// (Unicode's default case folding, the same on both backends), unique in `tags.name_key`.
enum TagNames {
    static func key(_ name: String) -> String { name.lowercased() }
}
