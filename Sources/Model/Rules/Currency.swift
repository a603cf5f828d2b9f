/// ISO 4217 currencies that have a minor unit, with its number of digits: what a sale's
/// `currency` may be (issue 25). Amounts are integers in that unit (`4999` USD is 49.99,
/// `4999` JPY is 4,999 yen). Codes with no minor unit (`xxx`, the metals `xau`, `xag`,
/// `xpt`, `xpd`, the funds `xdr`, `xsu`, `xua`, `xba`...`xbd`, the test code `xts`) are
/// refused, as are withdrawn ones: `currency_unavailable`.
public enum Currency {
    /// The code every sale without `currency` has.
    public static let defaultCode = "usd"

    /// Digits of the minor unit of the active code `code` (lowercase or uppercase),
    /// nil when it is not an active ISO 4217 code with a minor unit.
    public static func minorUnit(_ code: String) -> Int? {
        guard code.utf8.count == 3 else { return nil }
        return digits[code.lowercased()]
    }

    static let zero = [
        "bif", "clp", "djf", "gnf", "isk", "jpy", "kmf", "krw", "pyg", "rwf", "ugx", "uyi", "vnd",
        "vuv", "xaf", "xof", "xpf",
    ]
    static let three = ["bhd", "iqd", "jod", "kwd", "lyd", "omr", "tnd"]
    static let four = ["clf", "uyw"]
    static let two = [
        "aed", "afn", "all", "amd", "ang", "aoa", "ars", "aud", "awg", "azn", "bam", "bbd", "bdt", "bgn", "bmd", "bnd",
        "bob", "bov", "brl", "bsd", "btn", "bwp", "byn", "bzd", "cad", "cdf", "che", "chf", "chw", "cny", "cop", "cou",
        "crc", "cup", "cve", "czk", "dkk", "dop", "dzd", "egp", "ern", "etb", "eur", "fjd", "fkp", "gbp", "gel", "ghs",
        "gip", "gmd", "gtq", "gyd", "hkd", "hnl", "htg", "huf", "idr", "ils", "inr", "irr", "jmd", "kes", "kgs", "khr",
        "kpw", "kyd", "kzt", "lak", "lbp", "lkr", "lrd", "lsl", "mad", "mdl", "mga", "mkd", "mmk", "mnt", "mop", "mru",
        "mur", "mvr", "mwk", "mxn", "mxv", "myr", "mzn", "nad", "ngn", "nio", "nok", "npr", "nzd", "pab", "pen", "pgk",
        "php", "pkr", "pln", "qar", "ron", "rsd", "rub", "sar", "sbd", "scr", "sdg", "sek", "sgd", "shp", "sle", "sos",
        "srd", "ssp", "stn", "svc", "syp", "szl", "thb", "tjs", "tmt", "top", "try", "ttd", "twd", "tzs", "uah", "usd",
        "usn", "uzs", "ved", "ves", "wst", "xcd", "xcg", "yer", "zar", "zmw", "zwg",
    ]

    static let digits: [String: Int] = {
        var table: [String: Int] = [:]
        for c in zero { table[c] = 0 }
        for c in two { table[c] = 2 }
        for c in three { table[c] = 3 }
        for c in four { table[c] = 4 }
        return table
    }()
}
