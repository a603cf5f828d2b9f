import Core
import Model
import Store

/// `apply FILE.json`: a declarative, idempotent import of
/// `{"domains":[...], "mobileApps":[...], "tags":[...], "links":[...]}`.
///
/// Each entry states the whole object in the API's create shape (omitted fields take
/// their defaults) and is read by the API's own decoders and `CatalogWriter`, so the
/// rules are the same. Identity:
/// - a domain by `hostname`;
/// - a Mobile App by `id` when given (a new app then gets this id, which keeps ids
///   stable across environments), else by `name` (which must then be unique);
/// - a tag by `name`, ignoring case (as the API keeps names unique);
/// - a link by `domain` + `key` (`key` is required here); its `mobile.appName` may name
///   an app of the file or of the store instead of `mobile.appId`, and its `tagNames`
///   tags of the file or of the store instead of `tagIds`.
///
/// Everything runs in one transaction: one broken entry and nothing is written. An
/// entry equal to what is stored (timestamps aside) is left alone, so a second run
/// changes nothing. Nothing absent from the file is deleted.
public struct CatalogImport {
    public struct Counts: Sendable, Equatable {
        public internal(set) var created = 0
        public internal(set) var updated = 0
        public internal(set) var unchanged = 0
        public var total: Int { created + updated + unchanged }
    }

    public struct Report: Sendable {
        public internal(set) var domains = Counts()
        public internal(set) var mobileApps = Counts()
        public internal(set) var tags = Counts()
        public internal(set) var links = Counts()
        /// One line per change (`created link go.example.com/invite`).
        public internal(set) var changes: [String] = []
        /// Publishable keys of the apps created now, shown once: (name, id, key).
        public internal(set) var newKeys: [(String, String, String)] = []
    }

    public enum Failure: Error, Sendable {
        /// Broken rules, with the file's JSON paths.
        case invalid([FieldProblem])
        case store(String)
    }

    /// Why the file is not a JSON document apply can read, as a rule ("must be valid
    /// JSON (syntax error at byte 12)").
    public struct Unreadable: Error, Sendable {
        public let rule: String
    }

    /// How the import's transaction is rolled back: refused with what it found, so
    /// that the report and the problems reach the caller typed.
    struct RolledBack: Error, Sendable {
        var problems: [FieldProblem]
        var report: Report
    }

    /// In the order they are applied: a link may name the apps and tags before it.
    static let sectionOrder = ["domains", "mobileApps", "tags", "links"]
    static let sections = Set(sectionOrder)

    /// The file's document (up to 32 levels and 64 MiB).
    public static func parse(_ bytes: [UInt8]) throws(Unreadable) -> JSONValue {
        do {
            return try JSONParser.parse(bytes, options: .init(maxDepth: 32, maxBytes: 64 << 20))
        } catch {
            throw Unreadable(rule: RequestBody.rule(error))
        }
    }

    /// Applies `document`; with `dryRun`, everything is checked and counted, then rolled back.
    public static func run(_ document: JSONValue, store: any Store, now: Int64, dryRun: Bool) -> Result<
        Report, Failure
    > {
        do throws(WriteError<RolledBack>) {
            return .success(
                try store.writeAndWait(refusing: RolledBack.self) { tx in
                    var importer = CatalogImport(tx: tx, now: now)
                    importer.apply(document)
                    if !importer.problems.isEmpty || dryRun {
                        throw RolledBack(problems: importer.problems.list, report: importer.report)
                    }
                    return importer.report
                })
        } catch {
            switch error {
            case .refused(let rolledBack) where rolledBack.problems.isEmpty: return .success(rolledBack.report)
            case .refused(let rolledBack): return .failure(.invalid(rolledBack.problems))
            case .store(let error): return .failure(.store("\(error)"))
            }
        }
    }

    let tx: any CatalogWriting & LinkWriting & KeyWriting & WebhookWriting & TransactionClock
    let now: Int64
    var problems = FieldProblems()
    var report = Report()
    /// App names of the file -> ids, for `mobile.appName`.
    var appIdsByName: [String: String] = [:]
    /// Tag names of the file (lowercased) -> ids, for `tagNames`.
    var tagIdsByName: [String: String] = [:]
    /// The store's tags by lowercased name, read when a link first names a tag the file
    /// does not declare (the file's own entries come first: they may rename one).
    var storedTagIdsByName: [String: String]?
    /// Names of the file's apps identified by name, each allowed once.
    var unpinnedNames: Set<String> = []
    /// Domain -> the index of the file's last app link on it: each such domain's AASA is
    /// checked once after every link is in (`CatalogWriter.checkLinkClaims`), and a
    /// refusal names that entry.
    var linkDomains: [String: Int] = [:]

    init(tx: any CatalogWriting & LinkWriting & KeyWriting & WebhookWriting & TransactionClock, now: Int64) {
        self.tx = tx
        self.now = now
    }

    mutating func apply(_ document: JSONValue) {
        guard case .object(let members) = document else {
            problems.add("(file)", "must hold a JSON object with domains, mobileApps, tags and links arrays")
            return
        }
        for (key, _) in members where !Self.sections.contains(key) {
            problems.add(key, "is not a known section (domains, mobileApps, tags, links)")
        }
        for section in Self.sectionOrder {
            guard let value = document[section] else { continue }
            guard case .array(let items) = value else {
                problems.add(section, "must be an array")
                continue
            }
            for (i, item) in items.enumerated() {
                let path = "\(section)[\(i)]"
                do {
                    switch section {
                    case "domains": try domain(item)
                    case "mobileApps": try app(item)
                    case "tags": try tag(item)
                    default:
                        if let domain = try link(item) { linkDomains[domain] = i }
                    }
                } catch let error as ManagementError {
                    record(error, path)
                } catch {
                    problems.add(path, "could not be stored: \(error)")
                }
            }
        }
        for (domain, i) in linkDomains.sorted(by: { $0.value < $1.value }) {
            do {
                try CatalogWriter.checkLinkClaims(domain: domain, tx)
            } catch let error as ManagementError {
                record(error, "links[\(i)]")
            } catch {
                problems.add("links[\(i)]", "could not be checked: \(error)")
            }
        }
    }

    mutating func record(_ error: ManagementError, _ path: String) {
        switch error {
        case .invalid(let list):
            for p in list { problems.add(FieldProblem(path + "." + p.field, p.rule, blocked: p.blocked)) }
        case .malformed(let p): problems.add(path + "." + p.field, p.rule)
        default: problems.add(path, error.message)
        }
    }

    // MARK: entries

    mutating func domain(_ json: JSONValue) throws {
        let existing = try json["hostname"]?.stringValue.flatMap { try tx.domain($0) }
        let domain = try DomainInput.decode(json, existing: existing, now: now)
        if let existing {
            var same = domain
            same.updatedAt = existing.updatedAt
            if same == existing {
                report.domains.unchanged += 1
                return
            }
            try CatalogWriter.updateDomain(domain, tx)
            report.domains.updated += 1
            report.changes.append("updated domain \(domain.hostname)")
        } else {
            _ = try CatalogWriter.createDomain(domain, tx)
            report.domains.created += 1
            report.changes.append("created domain \(domain.hostname)")
        }
    }

    mutating func app(_ json: JSONValue) throws {
        var members = json.objectValue ?? []
        var existing: MobileApp?
        var id: String?
        if let index = members.firstIndex(where: { $0.0 == "id" }) {
            guard case .string(let given) = members[index].1,
                Identifier.isValid(given, prefix: Identifier.mobileAppPrefix)
            else { throw ManagementError.invalid("id", "must be biq_mapp_ followed by a ULID (26 characters)") }
            members.remove(at: index)
            id = given
            existing = try tx.app(given)
        } else if case .string(let name)? = json["name"] {
            if !unpinnedNames.insert(name).inserted {
                throw ManagementError.invalid("name", "is used by another entry of this file; give each app an id")
            }
            let named = try tx.apps().filter { $0.name == name }
            if named.count > 1 {
                throw ManagementError.invalid(
                    "name", "is shared by \(named.count) Mobile Apps; add the id of the one to update")
            }
            existing = named.first
        }
        let appId = existing?.id ?? id ?? Identifier.make(Identifier.mobileAppPrefix)
        if case .string(let name)? = json["name"] {
            if let other = appIdsByName[name], other != appId {
                throw ManagementError.invalid("name", "is used by another entry of this file; give each app an id")
            }
            // Known before the app is read, so that a broken app does not also break its links.
            appIdsByName[name] = appId
        }
        let decoded = try MobileAppInput.decode(.object(members), id: appId, existing: existing, now: now)
        if let existing {
            var same = decoded
            same.updatedAt = existing.updatedAt
            if same == existing {
                report.mobileApps.unchanged += 1
                return
            }
            _ = try CatalogWriter.saveApp(decoded, tx)
            report.mobileApps.updated += 1
            report.changes.append("updated Mobile App \(decoded.name) (\(appId))")
        } else {
            _ = try CatalogWriter.saveApp(decoded, tx)
            let (key, _) = try CatalogWriter.issuePublishableKey(app: appId, now: now, tx)
            report.mobileApps.created += 1
            report.changes.append("created Mobile App \(decoded.name) (\(appId))")
            report.newKeys.append((decoded.name, appId, key))
        }
    }

    mutating func tag(_ json: JSONValue) throws {
        let name = json["name"]?.stringValue
        let existing = try name.flatMap { name in try tx.tags().first { $0.name.lowercased() == name.lowercased() } }
        let decoded = try TagInput.decode(
            json, id: existing?.id ?? Identifier.make(Identifier.tagPrefix), existing: existing, now: now)
        if tagIdsByName[decoded.name.lowercased()] != nil {
            throw ManagementError.invalid("name", "is used by another entry of this file (ignoring case)")
        }
        tagIdsByName[decoded.name.lowercased()] = decoded.id
        if let existing {
            var same = decoded
            same.updatedAt = existing.updatedAt
            if same == existing {
                report.tags.unchanged += 1
                return
            }
            _ = try TagOperations.save(decoded, tx)
            report.tags.updated += 1
            report.changes.append("updated tag \(decoded.name) (\(decoded.id))")
        } else {
            _ = try TagOperations.save(decoded, tx)
            report.tags.created += 1
            report.changes.append("created tag \(decoded.name) (\(decoded.id))")
        }
    }

    /// Stores the link unless it is unchanged; the domain when a link with an app was written.
    mutating func link(_ json: JSONValue) throws -> String? {
        guard case .object(var members) = json else { throw ManagementError.invalid("", "must be a JSON object") }
        guard case .string(let domain)? = json["domain"], case .string(let key)? = json["key"] else {
            throw ManagementError.invalid(
                "key", "is required here, with domain: apply identifies a link by its domain and key")
        }
        if let index = members.firstIndex(where: { $0.0 == "mobile" }), case .object(var mobile) = members[index].1,
            let nameIndex = mobile.firstIndex(where: { $0.0 == "appName" })
        {
            guard case .string(let name) = mobile[nameIndex].1 else {
                throw ManagementError.invalid("mobile.appName", "must be a string")
            }
            if mobile.contains(where: { $0.0 == "appId" }) {
                throw ManagementError.invalid("mobile.appName", "and mobile.appId are exclusive: give one")
            }
            mobile[nameIndex] = ("appId", .string(try appId(named: name)))
            members[index].1 = .object(mobile)
        }
        if let index = members.firstIndex(where: { $0.0 == "tagNames" }) {
            if members.contains(where: { $0.0 == "tagIds" }) {
                throw ManagementError.invalid("tagNames", "and tagIds are exclusive: give one")
            }
            guard case .array(let names) = members[index].1 else {
                throw ManagementError.invalid("tagNames", "must be an array of tag names")
            }
            var ids: [JSONValue] = []
            for (i, name) in names.enumerated() {
                guard case .string(let name) = name else {
                    throw ManagementError.invalid("tagNames[\(i)]", "must be a string")
                }
                ids.append(.string(try tagId(named: name, path: "tagNames[\(i)]")))
            }
            members[index] = ("tagIds", .array(ids))
        }
        let existing = try tx.link(host: domain, key: key)
        let id = existing?.id ?? Identifier.make(Identifier.linkPrefix)
        let decoded = try LinkInput.decode(.object(members), id: id, existing: existing, now: now)
        if let existing {
            var same = decoded
            same.updatedAt = existing.updatedAt
            if same == existing {
                report.links.unchanged += 1
                return nil
            }
            _ = try CatalogWriter.saveLink(decoded, tx, checkAssociation: false)
            report.links.updated += 1
            report.changes.append("updated link \(domain)/\(key)")
        } else {
            _ = try CatalogWriter.saveLink(decoded, tx, checkAssociation: false)
            report.links.created += 1
            report.changes.append("created link \(domain)/\(key)")
        }
        return decoded.mobile == nil ? nil : decoded.domain
    }

    mutating func tagId(named name: String, path: String) throws -> String {
        if let id = tagIdsByName[name.lowercased()] { return id }
        // The store's tags read once for the whole file, not once per link that names one.
        if storedTagIdsByName == nil {
            storedTagIdsByName = Dictionary(
                try tx.tags().map { ($0.name.lowercased(), $0.id) }, uniquingKeysWith: { first, _ in first })
        }
        guard let id = storedTagIdsByName?[name.lowercased()] else {
            throw ManagementError.invalid(path, "names no tag (\(name)): declare it in the file's tags")
        }
        return id
    }

    func appId(named name: String) throws -> String {
        if let id = appIdsByName[name] { return id }
        let named = try tx.apps().filter { $0.name == name }
        guard named.count == 1, let app = named.first else {
            throw ManagementError.invalid(
                "mobile.appName",
                named.isEmpty ? "names no Mobile App (\(name))" : "is shared by several Mobile Apps; use mobile.appId")
        }
        return app.id
    }
}
