import Model
import Templates

/// A tag as the console shows it: its name on a tint of its colour (the name carries the
/// meaning, the colour only helps the eye), and the palette's names for the tags page.
enum TagBadge {
    static let colorNames: [TagColor: String] = [
        .gray: "Gray", .red: "Red", .orange: "Orange", .yellow: "Yellow", .green: "Green", .teal: "Teal",
        .blue: "Blue", .purple: "Purple", .pink: "Pink",
    ]

    static func badge(_ tag: Tag) -> HTML {
        "<span class=\"tag tag-\(tag.color.rawValue)\">\(tag.name)</span>"
    }

    /// A square of the colour beside its name.
    static func swatch(_ color: TagColor) -> HTML {
        """
        <span class="swatch-named"><span class="swatch tag-\(color.rawValue)" aria-hidden="true"></span>\
        \(colorNames[color] ?? color.rawValue)</span>
        """
    }
}
