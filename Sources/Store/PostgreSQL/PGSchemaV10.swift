/// PostgreSQL schema version 10: conversion tracking switches (issue 25), as SQLite's 10.
///
/// Additive (`compatible_from` stays): an older binary beside it neither reads nor writes
/// the columns, so its links follow the domain's default, which is off unless set.
enum PGSchemaV10 {
    static let sql = """
        ALTER TABLE links ADD COLUMN track_conversions boolean;
        ALTER TABLE domains ADD COLUMN track_conversions boolean NOT NULL DEFAULT false;
        """
}
