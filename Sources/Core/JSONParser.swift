/// Why a document was not accepted.
public enum JSONParseError: Error, Equatable, Sendable {
    case syntax(offset: Int)
    case tooDeep(limit: Int)
    case tooLarge(limit: Int)
    case duplicateKey(String)
    case invalidUTF8
    /// More values (members' values, array items, the document itself) than `Options.maxValues`.
    case tooManyValues(limit: Int)
}

/// A strict RFC 8259 parser over bytes.
///
/// Strict because the resolver's contract depends on it: a body deeper than 32
/// levels or larger than 16 KB is `invalid_request`, and a duplicate key must not
/// let a client smuggle a second value past validation. Numbers become `.int` when
/// they are integers that fit, else `.double`.
///
/// Linear in the input whatever its shape (issue 33): repeated keys are found through
/// a set once an object is large, escapes are decoded in place. What a document costs
/// beyond its bytes is its values (each container is an allocation, and so is each
/// long string), which `Options.maxValues` bounds for request bodies.
public struct JSONParser {
    public struct Options: Sendable {
        /// Maximum nesting depth (`[[1]]` is 2).
        public var maxDepth: Int = 64
        /// Maximum input size in bytes.
        public var maxBytes: Int = 1 << 24
        /// Refuse objects that repeat a key.
        public var rejectDuplicateKeys: Bool = true
        /// Maximum number of values, every member's value and array item counted, and the
        /// document itself.
        public var maxValues: Int = .max
        public init(
            maxDepth: Int = 64, maxBytes: Int = 1 << 24, rejectDuplicateKeys: Bool = true, maxValues: Int = .max
        ) {
            self.maxDepth = maxDepth
            self.maxBytes = maxBytes
            self.rejectDuplicateKeys = rejectDuplicateKeys
            self.maxValues = maxValues
        }
    }

    public static func parse(_ text: String, options: Options = Options()) throws(JSONParseError) -> JSONValue {
        var copy = text
        let result = copy.withUTF8 { buf in
            Result { () throws(JSONParseError) in try parse(UnsafeRawBufferPointer(buf), options: options) }
        }
        return try result.get()
    }

    public static func parse(_ bytes: [UInt8], options: Options = Options()) throws(JSONParseError) -> JSONValue {
        let result = bytes.withUnsafeBytes { buf in
            Result { () throws(JSONParseError) in try parse(buf, options: options) }
        }
        return try result.get()
    }

    public static func parse(_ bytes: UnsafeRawBufferPointer, options: Options = Options()) throws(JSONParseError)
        -> JSONValue
    {
        if bytes.count > options.maxBytes { throw .tooLarge(limit: options.maxBytes) }
        var p = JSONParser(bytes: bytes, options: options)
        p.skipWhitespace()
        let value = try p.parseValue(depth: 0)
        p.skipWhitespace()
        if p.index != bytes.count { throw .syntax(offset: p.index) }
        return value
    }

    /// Objects up to this many members look for a repeated key by scanning them: cheaper
    /// than hashing for the small objects of every request, and it allocates nothing.
    static let keysScannedInPlace = 16

    private let bytes: UnsafeRawBufferPointer
    private let options: Options
    private var index = 0
    /// Values still allowed (`Options.maxValues` minus those begun).
    private var valuesLeft: Int

    private init(bytes: UnsafeRawBufferPointer, options: Options) {
        self.bytes = bytes
        self.options = options
        self.valuesLeft = options.maxValues
    }

    private var atEnd: Bool { index >= bytes.count }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func expect(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw .syntax(offset: index) }
        let start = literal.utf8Start
        for i in 0..<count where bytes[index + i] != start[i] { throw .syntax(offset: index + i) }
        index += count
    }

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard !atEnd else { throw .syntax(offset: index) }
        if valuesLeft == 0 { throw .tooManyValues(limit: options.maxValues) }
        valuesLeft -= 1
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expect("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expect("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expect("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw .syntax(offset: index)
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > options.maxDepth { throw .tooDeep(limit: options.maxDepth) }
        index += 1
        var members: [(String, JSONValue)] = []
        // The keys seen, once the object is past `keysScannedInPlace` members: a scan of
        // the members for each key would be quadratic (8,000 keys in a 64 KB body held a
        // loop for 100 ms, issue 33). Empty, it allocates nothing.
        var keys = Set<String>()
        skipWhitespace()
        if !atEnd && bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard !atEnd, bytes[index] == UInt8(ascii: "\"") else { throw .syntax(offset: index) }
            let key = try parseString()
            if options.rejectDuplicateKeys {
                if members.count < Self.keysScannedInPlace {
                    for (k, _) in members where k == key { throw .duplicateKey(key) }
                } else {
                    if keys.isEmpty {
                        keys.reserveCapacity(members.count * 2)
                        for (k, _) in members { keys.insert(k) }
                    }
                    guard keys.insert(key).inserted else { throw .duplicateKey(key) }
                }
            }
            skipWhitespace()
            guard !atEnd, bytes[index] == UInt8(ascii: ":") else { throw .syntax(offset: index) }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            members.append((key, value))
            skipWhitespace()
            guard !atEnd else { throw .syntax(offset: index) }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            throw .syntax(offset: index)
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > options.maxDepth { throw .tooDeep(limit: options.maxDepth) }
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if !atEnd && bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue(depth: depth))
            skipWhitespace()
            guard !atEnd else { throw .syntax(offset: index) }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            throw .syntax(offset: index)
        }
    }

    /// The byte a single-character escape (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`,
    /// `\t`) stands for, given the character after the backslash; nil for `u` and
    /// anything that is no escape.
    @inlinable
    public static func simpleEscape(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "\""): 0x22
        case UInt8(ascii: "\\"): 0x5C
        case UInt8(ascii: "/"): 0x2F
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw .syntax(offset: index) }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw .syntax(offset: index)
            }
            v = v << 4 | d
            index += 1
        }
        return v
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1  // opening quote
        let start = index
        // No byte of 0x80 or above copied as it is: the text is then valid UTF-8 without a
        // check (escapes only write valid UTF-8).
        var plain = true
        // Fast path: no escapes.
        while index < bytes.count {
            let c = bytes[index]
            if c == UInt8(ascii: "\"") {
                let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                index += 1
                // `decoding` is specialised, where `validating` looks its generic types up at
                // run time, for every string (issue 33).
                if plain { return String(decoding: slice, as: UTF8.self) }
                guard let s = String(validating: slice, as: UTF8.self) else { throw .invalidUTF8 }
                return s
            }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 { throw .syntax(offset: index) }
            if c >= 0x80 { plain = false }
            index += 1
        }
        var out = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let c = bytes[index]
            if c == UInt8(ascii: "\"") {
                index += 1
                if plain { return String(decoding: out, as: UTF8.self) }
                guard let s = String(validating: out, as: UTF8.self) else { throw .invalidUTF8 }
                return s
            }
            if c < 0x20 { throw .syntax(offset: index) }
            if c != UInt8(ascii: "\\") {
                if c >= 0x80 { plain = false }
                out.append(c)
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { throw .syntax(offset: index) }
            let e = bytes[index]
            index += 1
            if let simple = JSONParser.simpleEscape(e) {
                out.append(simple)
                continue
            }
            guard e == UInt8(ascii: "u") else { throw .syntax(offset: index - 1) }
            var scalar = try parseHex4()
            if (0xD800...0xDBFF).contains(scalar) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard index + 2 <= bytes.count, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "u")
                else { throw .syntax(offset: index) }
                index += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw .syntax(offset: index) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw .syntax(offset: index)
            }
            guard Unicode.Scalar(scalar) != nil else { throw .syntax(offset: index) }
            Self.appendUTF8(scalar, to: &out)
        }
        throw .syntax(offset: index)
    }

    /// A scalar's UTF-8 bytes, without the `String` a conversion through `Character` makes
    /// for each escape.
    private static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            out.append(UInt8(scalar))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | scalar >> 6))
            out.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | scalar >> 12))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        default:
            out.append(UInt8(0xF0 | scalar >> 18))
            out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard !atEnd else { throw .syntax(offset: index) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(bytes[index]) {
            while !atEnd, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        } else {
            throw .syntax(offset: index)
        }
        if !atEnd, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            let digits = index
            while !atEnd, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            if index == digits { throw .syntax(offset: index) }
        }
        if !atEnd, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if !atEnd, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            let digits = index
            while !atEnd, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            if index == digits { throw .syntax(offset: index) }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let i = Int64(text) { return .int(i) }
        guard let d = Double(text), d.isFinite else { throw .syntax(offset: start) }
        return .double(d)
    }
}
