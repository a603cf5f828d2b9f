import Templates

/// The tables the pages share: days by series, names by count, and the row of an empty one.
enum Tables {
    /// One row per day, newest first: the day (`<th scope="row">`, YYYY-MM-DD), a column per series, the total.
    static func days(id: String, caption: String, labels: [String], columns: [String], rows: [[Int]])
        -> HTML
    {
        let head: [HTML] = columns.map { "<th scope=\"col\" class=\"number\">\($0)</th>" }
        let body: [HTML] = rows.indices.reversed().map { i in
            let cells: [HTML] = rows[i].map { "<td class=\"number\">\(Format.count($0))</td>" }
            return
                "<tr><th scope=\"row\">\(labels[i])</th>\(cells)<td class=\"number\">\(Format.count(rows[i].reduce(0, +)))</td></tr>"
        }
        return """
            <table id="\(id)"><caption>\(caption)</caption>
            <thead><tr><th scope="col">Day (UTC)</th>\(head)<th scope="col" class="number">Total</th></tr></thead>
            <tbody>\(body)</tbody></table>
            """
    }

    static func counts(id: String, caption: String, header: String, rows: [(String, Int)], unit: String = "Clicks")
        -> HTML
    {
        let body: [HTML] = rows.map {
            "<tr><th scope=\"row\">\($0.0)</th><td class=\"number\">\(Format.count($0.1))</td></tr>"
        }
        return """
            <table id="\(id)"><caption>\(caption)</caption>
            <thead><tr><th scope="col">\(header)</th><th scope="col" class="number">\(unit)</th></tr></thead>
            <tbody>\(body)</tbody></table>
            """
    }

    /// The one row of a table with nothing to list (the table stays, so do its id and headers).
    static func empty(_ id: String, columns: Int, _ text: String) -> HTML {
        "<tr id=\"\(id)\"><td colspan=\"\(columns)\">\(text)</td></tr>"
    }
}
