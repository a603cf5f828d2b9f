/// Reads, by feature. Implemented by the per-loop readers and by transactions (which see
/// their own writes). A caller depends on the narrowest of these it uses (a function
/// that reads only links takes `any LinkReading`); this composition is what a store's
/// reader offers, and has no requirement of its own.
public protocol StoreReader: CatalogReading, LinkReading, KeyReading, VisitReading, OpenReading, SigningKeyReading,
    IdempotencyReading, AnalyticsReading, ConsoleReading, CertificateReading, ConversionReading, ClientClickReading,
    WebhookReading, InAppEscapeReading
{}
