import Foundation
import HTTPMessages
import XCTest

@testable import Templates

/// A small HTML tag scanner for tests: finds every start tag and its attributes, and insists on
/// the module's template rules (double-quoted attribute values, nothing unterminated).
struct ScannedTag: Equatable {
    let name: String
    let attributes: [(String, String)]

    static func == (a: ScannedTag, b: ScannedTag) -> Bool {
        a.name == b.name && a.attributes.elementsEqual(b.attributes) { $0 == $1 }
    }

    func attribute(_ name: String) -> String? { attributes.first { $0.0 == name }?.1 }
}

enum TagScanner {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Start tags in document order; throws on an unquoted or single-quoted attribute value.
    static func scan(_ html: String) throws -> [ScannedTag] {
        let chars = Array(html.unicodeScalars)
        var tags: [ScannedTag] = []
        var i = 0
        func isNameChar(_ c: Unicode.Scalar) -> Bool {
            c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "-" || c == ":" || c == "_"
        }
        while i < chars.count {
            guard chars[i] == "<" else {
                i += 1
                continue
            }
            i += 1
            if i < chars.count && (chars[i] == "/" || chars[i] == "!") {
                while i < chars.count && chars[i] != ">" { i += 1 }
                continue
            }
            var name = ""
            while i < chars.count && isNameChar(chars[i]) {
                name.unicodeScalars.append(chars[i])
                i += 1
            }
            guard !name.isEmpty else { throw Failure(description: "bare < in markup at \(i)") }
            var attributes: [(String, String)] = []
            while true {
                while i < chars.count && (chars[i] == " " || chars[i] == "\n") { i += 1 }
                guard i < chars.count else { throw Failure(description: "unterminated <\(name)") }
                if chars[i] == ">" {
                    i += 1
                    break
                }
                if chars[i] == "/" && i + 1 < chars.count && chars[i + 1] == ">" {
                    i += 2
                    break
                }
                var attr = ""
                while i < chars.count && isNameChar(chars[i]) {
                    attr.unicodeScalars.append(chars[i])
                    i += 1
                }
                guard !attr.isEmpty else { throw Failure(description: "junk in <\(name)> at \(i)") }
                if i < chars.count && chars[i] == "=" {
                    i += 1
                    guard i < chars.count && chars[i] == "\"" else {
                        throw Failure(description: "<\(name) \(attr)=...> is not double-quoted")
                    }
                    i += 1
                    var value = ""
                    while i < chars.count && chars[i] != "\"" {
                        value.unicodeScalars.append(chars[i])
                        i += 1
                    }
                    i += 1
                    attributes.append((attr.lowercased(), value))
                } else {
                    attributes.append((attr.lowercased(), ""))
                }
            }
            tags.append(ScannedTag(name: name.lowercased(), attributes: attributes))
        }
        return tags
    }

    /// The elements the pages are allowed to contain.
    static let allowedTags: Set<String> = [
        "html", "head", "meta", "title", "link", "script", "body", "main", "div", "img", "p", "h1", "a", "ol", "li",
        "svg", "circle", "path", "rect", "section", "h2",
    ]

    /// Fails unless `html` only has allowed elements, no event handlers, no inline script or
    /// style, and every URL attribute is `https:`, an own asset, or the empty favicon.
    static func assertInert(_ html: String, file: StaticString = #filePath, line: UInt = #line) {
        let tags: [ScannedTag]
        do {
            tags = try scan(html)
        } catch {
            XCTFail("markup does not scan: \(error)", file: file, line: line)
            return
        }
        for tag in tags {
            XCTAssertTrue(allowedTags.contains(tag.name), "unexpected <\(tag.name)>", file: file, line: line)
            if tag.name == "script" {
                XCTAssertNotNil(tag.attribute("src"), "inline script", file: file, line: line)
                XCTAssertNotNil(tag.attribute("nonce"), "script without nonce", file: file, line: line)
            }
            for (name, value) in tag.attributes {
                XCTAssertFalse(name.hasPrefix("on"), "event handler \(name)", file: file, line: line)
                XCTAssertNotEqual(name, "style", "inline style", file: file, line: line)
                if ["href", "src", "data-handoff", "action", "formaction"].contains(name) {
                    // `x-safari-https:` hands an https: URL to Safari (the in-app Deep View).
                    let ok =
                        value.hasPrefix("https://") || value.hasPrefix("/_biqli/assets/")
                        || (tag.name == "link" && value == "data:,")
                        || (tag.name == "a" && name == "href" && value.hasPrefix("x-safari-https://"))
                    XCTAssertTrue(ok, "\(tag.name) \(name)=\(value)", file: file, line: line)
                }
            }
            if tag.name == "meta", let property = tag.attribute("property") ?? tag.attribute("name"),
                ["og:image", "og:url", "twitter:image"].contains(property)
            {
                XCTAssertTrue(tag.attribute("content")?.hasPrefix("https://") ?? false, file: file, line: line)
            }
        }
    }
}

extension String {
    /// Non-overlapping occurrences of `needle`.
    func occurrences(of needle: String) -> Int {
        var count = 0
        var rest = self[...]
        while let range = rest.range(of: needle) {
            count += 1
            rest = rest[range.upperBound...]
        }
        return count
    }
}

extension HTTPResponse {
    var text: String { String(decoding: body, as: UTF8.self) }
    /// The first value of the header `name` (case-insensitive).
    func header(_ name: String) -> String? { headers[name] }
}
