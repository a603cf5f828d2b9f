/// Writes, by feature, inside the writer's transaction; reads through it see the writes
/// before them. A write body is given the whole composition (`Store.write`); the
/// functions it calls take the narrowest protocols they use. No requirement of its own.
public protocol StoreTransaction: StoreReader, TransactionClock, StoreLocking, CatalogWriting, LinkWriting, KeyWriting,
    VisitWriting, OpenWriting, SigningKeyWriting, IdempotencyWriting, ConsoleWriting, CertificateWriting,
    ConversionWriting, ClientClickWriting, WebhookWriting, InAppEscapeWriting
{}
