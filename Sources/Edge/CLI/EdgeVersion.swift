/// This build's version, and the one place it is written: `--version`, `biqli_node_info`
/// on `/metrics`, the `nodes` table and the ACME client's `User-Agent` all read it.
/// `scripts/release X.Y.Z` sets it from the release's tag (`vX.Y.Z`); between releases it
/// is the next version with `-dev`. `scripts/check-version` (run by `scripts/test`) keeps
/// it, `CHANGELOG.md` and the tag on `HEAD` in agreement.
enum EdgeVersion {
    static let current = "0.2.0-dev"
}
