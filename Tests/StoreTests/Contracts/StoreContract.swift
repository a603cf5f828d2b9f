import XCTest

@testable import Store

/// One backend under the contract suites (as Fluent's `FluentBenchmarker` is one suite
/// that every driver runs): its write bodies, committed when they return, and a reader
/// of what was committed. Every case starts on an empty, migrated store whose batches
/// run at `ContractTime.now`.
protocol ContractBackend: AnyObject {
    /// Runs `body` in one committed transaction; rolls it back and throws when it throws.
    @discardableResult
    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) throws -> T
    /// A reader of the committed rows (a loop's reader, or another connection).
    var committed: any StoreReader { get }
}

extension ContractBackend {
    /// The StoreError a write fails with, or nil when it committed.
    func writeError(_ body: @escaping @Sendable (any StoreTransaction) throws -> Void) -> StoreError? {
        do {
            try write(body)
            return nil
        } catch let error as StoreError {
            return error
        } catch {
            return .backend(code: -1, message: "not a StoreError: \(error)")
        }
    }
}

/// A case of a feature's suite: it gets a fresh backend.
typealias ContractCase = (name: String, run: @Sendable (any ContractBackend) throws -> Void)

/// The time of the batches in every backend of the suites (the partitions of the
/// PostgreSQL test database are made around it).
enum ContractTime {
    static let now: Int64 = 1_700_000_000_000
}

extension XCTestCase {
    /// Runs every case of `suite` on a backend of its own, made by `fresh`. An assertion's
    /// failure points at its line in the case; an error thrown out of a case is reported
    /// with the case's name.
    func runContract(_ suite: [ContractCase], fresh: () throws -> any ContractBackend) {
        for c in suite {
            do {
                try c.run(try fresh())
            } catch {
                XCTFail("\(c.name): \(error)")
            }
        }
    }

    /// `runContract` on a test case that is its own backend: set up again (after a
    /// `tearDown`) for every case but the first.
    func runContract(_ suite: [ContractCase], on backend: some ContractBackend & XCTestCase) {
        var first = true
        runContract(suite) {
            if !first {
                backend.tearDown()
                try backend.setUpWithError()
            }
            first = false
            return backend
        }
    }
}

extension StoreTestCase: ContractBackend {
    var committed: any StoreReader { reader }
}

extension PGTestCase: ContractBackend {
    @discardableResult
    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) throws -> T {
        try inTransaction { tx in try body(tx) }
    }

    var committed: any StoreReader { reader }
}
