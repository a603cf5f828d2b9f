import CPostgreSQL
import Core
import Model

#if canImport(Glibc)
import Glibc
#endif

/// One libpq connection, used by one thread at a time. libpq connections are not
/// thread-safe, so this is not `Sendable`: a connection made on one thread is handed whole
/// to another (`sending`: `PGWriter.start`, `PGConnectionSlot.offer`), and the compiler
/// checks that the first keeps nothing of it. Statements are prepared once by name and run with binary
/// parameters and binary results: no text formatting or parsing of numbers and
/// no hex for `bytea` on the way in or out.
///
/// Errors become `StoreError`: a unique or exclusion violation `.conflict` (with the
/// constraint's name, see `PGErrors`), a lost connection `.unavailable`, anything
/// else `.backend` with the SQLSTATE. Messages never carry the connection string.
final class PGConnection {
    let handle: OpaquePointer
    /// Statement names already prepared on this connection.
    private var prepared: Set<String> = []

    private init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit { PQfinish(handle) }

    /// Connects (blocking, bounded by the connection string's `connect_timeout`, 10 s
    /// when it names none). The password is never part of an error.
    static func connect(_ settings: PGConnectionSettings) throws(StoreError) -> PGConnection {
        guard let conn = PQconnectdb(settings.connectionString) else {
            throw .unavailable("cannot allocate a PostgreSQL connection")
        }
        guard PQstatus(conn) == CONNECTION_OK else {
            let message = PGConnection.text(PQerrorMessage(conn))
            PQfinish(conn)
            throw .unavailable("cannot connect to PostgreSQL at \(settings.redacted): " + message)
        }
        let connection = PGConnection(handle: conn)
        // Timestamps are epoch milliseconds in bigint columns; the session's zone never matters.
        // Notices (`CREATE TABLE IF NOT EXISTS` on a made schema) would reach standard error
        // through libpq's default processor: start-up failures must stay one line there.
        try connection.execute("SET application_name = 'biqli-edge'; SET client_min_messages = warning")
        return connection
    }

    /// The server process serving this connection (it tags notifications this
    /// connection's own transactions send).
    var backendPID: Int32 { PQbackendPID(handle) }

    var isBroken: Bool { PQstatus(handle) != CONNECTION_OK }

    /// Whether an idle connection that does not `LISTEN` is still good, checked before a
    /// statement is sent on it (one `poll` of its socket): on such a connection the server
    /// sends nothing between statements, so anything to read (a shutdown's FATAL message,
    /// the end of the stream of a server that restarted) means it is gone.
    func isAlive() -> Bool {
        guard PQstatus(handle) == CONNECTION_OK else { return false }
        var entry = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 0
    }

    /// The descriptor to poll for notifications.
    var socket: Int32 { PQsocket(handle) }

    // MARK: statements

    /// Runs `sql` (one or more statements, no parameters), for DDL and control statements.
    func execute(_ sql: String) throws(StoreError) {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, sql: sql)
    }

    /// Runs the statement named `name` (prepared from `sql` on first use) with `params`.
    ///
    /// A `text` parameter with a NUL byte never reaches the server, which would refuse it
    /// (22021) whatever the statement. No stored text holds one (PostgreSQL cannot store
    /// it, and every write is validated), so a query with such a parameter matches no row
    /// and is answered as such (`GET /api/v1/links/%00` is a 404, as on SQLite); any
    /// other statement could store it, and is refused with `textWithNUL`.
    @discardableResult
    func run(_ name: String, _ sql: String, _ params: PGParams = PGParams()) throws(StoreError) -> PGResult {
        if params.holdsNUL {
            guard PGConnection.isQuery(sql), let empty = PQmakeEmptyPGresult(handle, PGRES_TUPLES_OK) else {
                throw StoreError.textWithNUL
            }
            return PGResult(empty)
        }
        if !prepared.contains(name) {
            let types = params.types
            let result = types.withUnsafeBufferPointer { t in
                PQprepare(handle, name, sql, Int32(types.count), t.baseAddress)
            }
            defer { PQclear(result) }
            try check(result, sql: sql)
            prepared.insert(name)
        }
        let result = params.withPointers { values, lengths, formats, count in
            PQexecPrepared(handle, name, count, values, lengths, formats, 1)
        }
        do {
            try check(result, sql: sql)
        } catch {
            PQclear(result)
            throw error
        }
        return PGResult(result!)
    }

    /// A statement that only reads: its first word is `SELECT`.
    static func isQuery(_ sql: String) -> Bool {
        let word = sql.utf8.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }.prefix(6)
        return word.count == 6 && zip(word, "SELECT".utf8).allSatisfy { $0 & 0xDF == $1 }
    }

    /// Forgets prepared statements (after a reconnect they must be prepared again).
    func forgetPrepared() { prepared.removeAll() }

    private func check(_ result: OpaquePointer?, sql: String) throws(StoreError) {
        guard let result else {
            throw PGErrors.connectionError(PGConnection.text(PQerrorMessage(handle)), broken: isBroken)
        }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY: return
        default:
            throw PGErrors.error(
                of: result, connectionBroken: isBroken, message: PGConnection.text(PQerrorMessage(handle)))
        }
    }

    // MARK: notifications

    /// Reads what the server sent and returns the notifications received: (channel,
    /// payload, sender's backend PID). Never blocks.
    func notifications() throws(StoreError) -> [(channel: String, payload: String, sender: Int32)] {
        guard PQconsumeInput(handle) == 1 else {
            throw PGErrors.connectionError(PGConnection.text(PQerrorMessage(handle)), broken: true)
        }
        var out: [(String, String, Int32)] = []
        while let notify = PQnotifies(handle) {
            let n = notify.pointee
            out.append((String(cString: n.relname), String(cString: n.extra), n.be_pid))
            PQfreemem(notify)
        }
        return out
    }

    /// A libpq message on one line (libpq's span several, with tab-indented hints).
    static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer).split(whereSeparator: \.isNewline)
            .map { line in line.drop { $0 == " " || $0 == "\t" } }.filter { !$0.isEmpty }.joined(separator: " ")
    }
}
