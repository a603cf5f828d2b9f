import Model

/// Version 2: the probabilistic candidates leave SQLite's indexes (decision 0009).
///
/// `clicks_probabilistic` took a random key per iOS click, a dirtied 4 KiB page per
/// click and commit; the writer now keeps the candidates of the last hour in memory
/// (`CandidateIndex`) and checks each against its `clicks` row.
enum SchemaV2 {
    static let sql = """
        DROP INDEX IF EXISTS clicks_probabilistic;
        """
}
