/// A whole number as a query parameter or form field must write it: ASCII digits only,
/// no sign, no spaces, no leading zero (but `0` itself), at most 18 digits (so that it
/// fits an `Int` on every platform before its range is checked). One rule for every
/// such parameter, so that `size=+2048` and `days=+5` get the same answer, and a number
/// has one spelling (`007` is not `7`).
public enum WholeNumber {
    public static let maxDigits = 18

    /// The number `text` spells, or nil when it breaks the rule.
    public static func parse<S: StringProtocol>(_ text: S) -> Int? {
        var value = 0
        var count = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            if count == 1 && value == 0 { return nil }  // a leading zero
            count += 1
            guard count <= maxDigits else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return count == 0 ? nil : value
    }

    /// The number `text` spells when it is within `range`.
    public static func parse<S: StringProtocol>(_ text: S, in range: ClosedRange<Int>) -> Int? {
        guard let n = parse(text), range.contains(n) else { return nil }
        return n
    }

    /// The rule in words, for error messages and the OpenAPI document.
    public static let rule = "digits only: no sign, no spaces, no leading zero"
}
