/// A fragment of HTML that is safe to send, by construction.
///
/// The only ways to make one:
/// - a string literal written in source code (`"<p class=\"note\">"`): literal segments are typed
///   `StaticString`, so a runtime `String` can never be passed off as markup;
/// - interpolation into such a literal: `"<h1>\(title)</h1>"` escapes `title` (see `HTMLEscaping`),
///   `\(url)` takes a `SafeURL`, an `AssetURL` or a `LocalURL`, `\(fragment)` nests another `HTML`;
/// - `HTML(unsafeTrusted:)`, deliberately named, for markup that was produced by this module.
///
/// Template rules the escaping relies on (kept by every page in this module and pinned by tests):
/// every attribute value is double-quoted, and nothing is ever interpolated inside `<script>` or
/// `<style>` elements. In a URL-valued attribute (`href`, `src`, `og:image` content, ...) a plain
/// `String` renders as nothing at all: only `SafeURL`, `AssetURL` and `LocalURL` can fill those
/// (fail closed).
public struct HTML: Sendable, Equatable, ExpressibleByStringInterpolation {
    /// The markup, ready to be sent.
    public let rendered: String

    /// Wraps markup without escaping it. Only for text this module produced or checked itself;
    /// never for anything that came from configuration or a request.
    public init(unsafeTrusted markup: String) {
        rendered = markup
    }

    public init(stringLiteral value: StaticString) {
        rendered = value.description
    }

    public init(stringInterpolation: Interpolation) {
        rendered = stringInterpolation.output
    }

    /// The empty fragment.
    public static let empty = HTML(unsafeTrusted: "")

    /// Concatenates fragments.
    public static func join(_ parts: [HTML], separator: HTML = .empty) -> HTML {
        HTML(unsafeTrusted: parts.map(\.rendered).joined(separator: separator.rendered))
    }

    /// The UTF-8 bytes of the markup.
    public var bytes: [UInt8] { Array(rendered.utf8) }

    /// Builds an `HTML` value; every non-literal piece goes through one of the typed
    /// `appendInterpolation` overloads below.
    public struct Interpolation: StringInterpolationProtocol {
        var output: String

        public init(literalCapacity: Int, interpolationCount: Int) {
            output = ""
            output.reserveCapacity(literalCapacity + interpolationCount * 24)
        }

        public mutating func appendLiteral(_ literal: StaticString) {
            output += literal.description
        }

        /// Text: escaped for both element content and double-quoted attribute values.
        /// Rendered as nothing where a URL is expected (see `URLAttributeContext`).
        public mutating func appendInterpolation(_ text: String) {
            if URLAttributeContext.expectsURL(after: output) { return }
            HTMLEscaping.escape(text, into: &output)
        }

        /// Optional text: nothing when nil.
        public mutating func appendInterpolation(_ text: String?) {
            if let text { appendInterpolation(text) }
        }

        /// A number (widths, heights, counts).
        public mutating func appendInterpolation(_ number: Int) {
            output += String(number)
        }

        /// A checked absolute `https:` URL, escaped for a double-quoted attribute.
        public mutating func appendInterpolation(_ url: SafeURL) {
            HTMLEscaping.escape(url.absoluteString, into: &output)
        }

        /// A path to one of this server's own assets.
        public mutating func appendInterpolation(_ url: AssetURL) {
            HTMLEscaping.escape(url.path, into: &output)
        }

        /// A checked path or fragment on this page's own origin.
        public mutating func appendInterpolation(_ url: LocalURL) {
            HTMLEscaping.escape(url.path, into: &output)
        }

        /// A nested fragment, already safe.
        public mutating func appendInterpolation(_ fragment: HTML) {
            output += fragment.rendered
        }

        /// Nested fragments, in order.
        public mutating func appendInterpolation(_ fragments: [HTML]) {
            for fragment in fragments { output += fragment.rendered }
        }
    }
}

/// The attribute names whose values are URLs (or code) and so must never take a plain `String`.
enum URLAttributeContext {
    /// Attribute openings, as written in templates, after which only a URL type may follow.
    static let urlOpenings: [[UInt8]] = [
        " href=\"", " src=\"", " srcset=\"", " action=\"", " formaction=\"", " poster=\"", " data=\"",
        " cite=\"", ":href=\"", " data-handoff=\"", " style=\"",
        // Open Graph and Twitter tags whose `content` is a URL.
        "=\"og:image\" content=\"", "=\"og:url\" content=\"", "=\"og:image:secure_url\" content=\"",
        "=\"twitter:image\" content=\"",
    ].map { Array($0.utf8) }

    /// True when `output` ends inside a URL-valued (or style / event-handler) attribute value.
    static func expectsURL(after output: String) -> Bool {
        let utf8 = output.utf8
        guard utf8.last == UInt8(ascii: "\"") else { return false }
        for opening in urlOpenings where utf8.count >= opening.count {
            if utf8.suffix(opening.count).elementsEqual(opening) { return true }
        }
        return endsWithEventHandlerOpening(utf8)
    }

    /// ` on<letters>="`: an inline event handler is code, never a place for text.
    private static func endsWithEventHandlerOpening(_ utf8: String.UTF8View) -> Bool {
        // Walk back over `="`, then the attribute name, bounded so the check stays cheap.
        var name: [UInt8] = []
        var index = utf8.index(utf8.endIndex, offsetBy: -1)
        guard index > utf8.startIndex else { return false }
        index = utf8.index(before: index)
        guard utf8[index] == UInt8(ascii: "=") else { return false }
        while index > utf8.startIndex && name.count < 32 {
            index = utf8.index(before: index)
            let byte = utf8[index] | 0x20  // ASCII lower-case
            if byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") {
                name.append(byte)
            } else {
                let isSpace = utf8[index] == UInt8(ascii: " ") || utf8[index] == UInt8(ascii: "\n")
                return isSpace && name.count > 2 && name.suffix(2) == [UInt8(ascii: "n"), UInt8(ascii: "o")]
            }
        }
        return false
    }
}
