/// Renders decoded countries as a small text table, with a column saying which call returned each row.
enum CountryTable {
    /// The table's lines: a header, a rule, and one row per country.
    ///
    /// - Parameter calls: The calls whose countries to show, in order.
    static func render(_ calls: [DemoReport.Call]) -> [String] {
        let header = ["Call", "Code", "Country", "Capital", "Region", "Population"]
        var rows: [[String]] = []
        for call in calls {
            for country in call.countries {
                rows.append([
                    call.name, country.cca2, country.name.common, country.capital?.joined(separator: ", ") ?? "-",
                    country.region, grouped(country.population),
                ])
            }
        }
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == cells.count - 1 ? padding + cell : cell + padding
            }
            .joined(separator: "  ")
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return [line(header), rule] + rows.map(line)
    }

    /// `67391582` as `67,391,582`, the same in every locale.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return value < 0 ? "-" + out : out
    }
}
