/// A tests-only hook (`BIQLI_EDGE_TEST_EXTRA_MIGRATION`): schema steps after the
/// binary's last, so that one build plays both sides of a rolling upgrade. A process
/// started with the hook is the "new binary" (it migrates the database past what the
/// others know); one started without it is the "old binary". Never set in production:
/// the steps make a table nothing uses, and a database migrated by them is refused by
/// binaries of the next real schema step (whose version the hook took).
public enum PGTestMigration: String, Sendable, CaseIterable {
    /// One additive step (a new table): old binaries keep running beside it.
    case additive
    /// The additive step, then a breaking one: binaries that do not know it refuse the
    /// schema at start-up.
    case breaking

    /// The name of the table the steps make.
    public static let probeTable = "rolling_upgrade_probe"

    /// The steps after schema version `latest`, and which of them are breaking.
    func steps(after latest: Int) -> (migrations: [Migration], breaking: Set<Int>) {
        let additive = Migration(
            version: latest + 1,
            sql: """
                CREATE TABLE \(Self.probeTable) (
                    id bigint NOT NULL CONSTRAINT rolling_upgrade_probe_pkey PRIMARY KEY,
                    note text
                );
                """)
        switch self {
        case .additive: return ([additive], [])
        case .breaking:
            let breaking = Migration(
                version: latest + 2,
                sql: "ALTER TABLE \(Self.probeTable) ADD COLUMN required text NOT NULL DEFAULT '';")
            return ([additive, breaking], [latest + 2])
        }
    }
}
