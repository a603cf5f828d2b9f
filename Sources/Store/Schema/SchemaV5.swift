/// Version 5: a placeholder in this branch. The link analytics step (issue 18's sibling,
/// GeoIP and QR codes) takes this number; ACME's tables are version 6 (`SchemaV6`).
/// Merging replaces this file with that step: a file migrated by this branch alone has
/// no such tables, which only test data ever is.
enum SchemaV5 {
    static let sql = "SELECT 1;"
}
