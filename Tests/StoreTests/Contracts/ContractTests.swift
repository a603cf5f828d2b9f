import XCTest

@testable import Store

/// Every feature's contract suite on SQLite.
final class SQLiteContractTests: StoreTestCase {
    func testAnalytics() { runContract(AnalyticsContract.suite, on: self) }
    func testCatalog() { runContract(CatalogContract.suite, on: self) }
    func testLinkOptions() { runContract(LinkOptionsContract.suite, on: self) }
    func testVisits() { runContract(VisitContract.suite, on: self) }
    func testOpens() { runContract(OpenContract.suite, on: self) }
    func testClientClicks() { runContract(ClientClickContract.suite, on: self) }
    func testInAppEscapes() { runContract(InAppEscapeContract.suite, on: self) }
    func testAlternateHostnames() { runContract(AlternateHostnameContract.suite, on: self) }
    func testConsole() { runContract(ConsoleContract.suite, on: self) }
    func testConversions() { runContract(ConversionStoreCases.suite, on: self) }
    func testWebhooks() { runContract(WebhookStoreCases.suite, on: self) }
    func testVariantCounts() { runContract(VariantCountsContract.suite, on: self) }
}

/// The same suites on PostgreSQL (skipped without `BIQLI_TEST_POSTGRES_URL`).
final class PGContractTests: PGTestCase {
    func testAnalytics() { runContract(AnalyticsContract.suite, on: self) }
    func testCatalog() { runContract(CatalogContract.suite, on: self) }
    func testLinkOptions() { runContract(LinkOptionsContract.suite, on: self) }
    func testVisits() { runContract(VisitContract.suite, on: self) }
    func testOpens() { runContract(OpenContract.suite, on: self) }
    func testClientClicks() { runContract(ClientClickContract.suite, on: self) }
    func testInAppEscapes() { runContract(InAppEscapeContract.suite, on: self) }
    func testAlternateHostnames() { runContract(AlternateHostnameContract.suite, on: self) }
    func testConsole() { runContract(ConsoleContract.suite, on: self) }
    func testConversions() { runContract(ConversionStoreCases.suite, on: self) }
    func testWebhooks() { runContract(WebhookStoreCases.suite, on: self) }
    func testVariantCounts() { runContract(VariantCountsContract.suite, on: self) }
}
