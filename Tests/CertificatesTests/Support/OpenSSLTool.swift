import Foundation

/// The `openssl` command line, for checking what the module makes with an independent
/// implementation of the same formats.
enum OpenSSLTool {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `openssl args` in `directory`; its standard output (and error) as text.
    @discardableResult
    static func run(_ args: [String], in directory: String, input: Data? = nil) throws -> (
        status: Int32, output: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = args
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let stdin = Pipe()
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(input) }
        try stdin.fileHandleForWriting.close()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static func scratch() throws -> String {
        let dir = NSTemporaryDirectory() + "certificates-tests-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The DER of an ECDSA signature given as r || s.
    static func derSignature(_ raw: [UInt8]) -> [UInt8] {
        func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var b = Array(bytes.drop { $0 == 0 })
            if b.isEmpty { b = [0] }
            if b[0] & 0x80 != 0 { b.insert(0, at: 0) }
            return [0x02, UInt8(b.count)] + b
        }
        let body = integer(raw[0..<32]) + integer(raw[32..<64])
        return [0x30, UInt8(body.count)] + body
    }

    /// A P-256 public key as PEM (SubjectPublicKeyInfo) from its coordinates.
    static func publicKeyPEM(x: [UInt8], y: [UInt8]) -> String {
        let prefix: [UInt8] = [
            0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48,
            0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00, 0x04,
        ]
        let der = Data(prefix + x + y)
        return "-----BEGIN PUBLIC KEY-----\n" + der.base64EncodedString(options: [.lineLength64Characters])
            + "\n-----END PUBLIC KEY-----\n"
    }
}
