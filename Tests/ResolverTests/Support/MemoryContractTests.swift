import Store
import XCTest

@testable import StoreTests

/// The in-memory store under the store's contract suites of the features it keeps
/// (catalog, links, keys, visits, opens, a link's counts per arm): the same cases as SQLite and PostgreSQL, so
/// that what the resolver's tests learn from it holds on the real stores. (It keeps no
/// webhooks, console rows, customers or apps' counts: it answers those with nothing, and
/// no suite of theirs runs on it.)
final class MemoryContractTests: XCTestCase {
    func testCatalog() { runContract(CatalogContract.suite, fresh: MemoryBackend.init) }
    func testVisits() { runContract(VisitContract.suite, fresh: MemoryBackend.init) }
    func testOpens() { runContract(OpenContract.suite, fresh: MemoryBackend.init) }
    func testVariantCounts() { runContract(VariantCountsContract.suite, fresh: MemoryBackend.init) }
}

/// An `InMemoryStore` at the suites' time.
final class MemoryBackend: ContractBackend {
    let store = InMemoryStore(readerCount: 1, clock: { ContractTime.now })

    deinit { store.close() }

    @discardableResult
    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) throws -> T {
        try store.writeAndWait(body)
    }

    var committed: any StoreReader { store.reader(loop: 0) }
}
