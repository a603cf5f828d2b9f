import Core

/// PATCH semantics: the stored resource's writable fields, with the patch laid over.
///
/// A top-level member of the patch replaces the stored one (`null` clears a nullable
/// field); the nested objects named in `nested` (`ios`, `android`, `mobile`, `preview`)
/// are merged one level deep, so `{"ios":{"appStoreId":"123"}}` changes only that
/// field. Arrays and `metadata` are replaced whole. The result is then validated
/// exactly like a create request, so a PATCH can never store what a create refuses.
enum MergePatch {
    static func apply(_ patch: [(String, JSONValue)], to base: JSONValue, nested: Set<String>) -> JSONValue {
        var members = base.objectValue ?? []
        for (key, value) in patch {
            var merged = value
            if nested.contains(key), case .object(let inner) = value, let current = base[key],
                case .object = current
            {
                merged = apply(inner, to: current, nested: [])
            }
            if let index = members.firstIndex(where: { $0.0 == key }) {
                members[index].1 = merged
            } else {
                members.append((key, merged))
            }
        }
        return .object(members)
    }
}
