import Foundation

/// Certificates for tests, made with the `openssl` command line: a CA, leaves it signs,
/// and self-signed ones.
struct TestPKI {
    let dir: String

    init() throws {
        dir = NSTemporaryDirectory() + "test-pki-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try run([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "ca.key",
            "-out", "ca.pem", "-days", "3", "-subj", "/CN=Test PKI CA",
        ])
    }

    func remove() { try? FileManager.default.removeItem(atPath: dir) }

    /// Chain (leaf, CA) then key, PEM, for `names` (the first is the CN).
    func leaf(_ names: [String], days: Int = 2) throws -> String {
        let base = "leaf-\(UInt32.random(in: 0...UInt32.max))"
        try run([
            "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
            base + ".key", "-out", base + ".csr", "-subj", "/CN=\(names[0])",
        ])
        try "subjectAltName=\(names.map { "DNS:" + $0 }.joined(separator: ","))\n".write(
            toFile: dir + "/" + base + ".ext", atomically: true, encoding: .utf8)
        try run([
            "x509", "-req", "-in", base + ".csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-days",
            String(days), "-extfile", base + ".ext", "-out", base + ".pem",
        ])
        return try read(base + ".pem") + read("ca.pem") + read(base + ".key")
    }

    /// A self-signed certificate then its key, PEM.
    func selfSigned(_ names: [String], subject: String? = nil) throws -> String {
        let base = "self-\(UInt32.random(in: 0...UInt32.max))"
        try run([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
            base + ".key", "-out", base + ".pem", "-days", "2", "-subj", "/CN=\(subject ?? names[0])", "-addext",
            "subjectAltName=\(names.map { "DNS:" + $0 }.joined(separator: ","))",
        ])
        return try read(base + ".pem") + read(base + ".key")
    }

    private func read(_ name: String) throws -> String { try String(contentsOfFile: dir + "/" + name, encoding: .utf8) }

    @discardableResult
    func run(_ args: [String], executable: String = "/usr/bin/openssl", input: String? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = args
        process.currentDirectoryURL = URL(fileURLWithPath: dir)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        let stdin = Pipe()
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
