/// Version 10: conversion tracking switches (issue 25). `links.track_conversions` is the
/// link's own (NULL: the domain's default), `domains.track_conversions` that default.
enum SchemaV10 {
    static let sql = """
        ALTER TABLE links ADD COLUMN track_conversions INTEGER;
        ALTER TABLE domains ADD COLUMN track_conversions INTEGER NOT NULL DEFAULT 0;
        """
}
