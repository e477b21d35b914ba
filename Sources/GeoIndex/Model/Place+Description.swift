extension Place {
    /// A short description made only from the place's own properties, for places that carry
    /// none (the Wikipedia places): what it is, how far it is from the centre of the search, and
    /// the article it comes from — "museum, 1.9 km from Paris; Wikipedia: Musée d'Orsay".
    /// Nothing is added that the data does not say.
    public func factualDescription(distanceKm: Double? = nil, from centre: String? = nil) -> String {
        var what = category.rawValue
        if let kind, kind != category.rawValue { what = "\(kind) (\(category.rawValue))" }
        if category == .town, let population { what += " of \(Place.grouped(population)) people" }
        if let distanceKm, let centre {
            what += ", \(Place.kilometres(distanceKm)) km from \(centre)"
        } else if let region {
            what += " in \(region)"
        }
        return wikipedia.map { "\(what); Wikipedia: \($0)" } ?? what
    }

    /// 1.9, 12 (one decimal below 10 km, whole kilometres above).
    static func kilometres(_ value: Double) -> String {
        value < 10 ? String((value * 10).rounded() / 10) : String(Int(value.rounded()))
    }

    /// 8,305: digits grouped by thousands, whatever the machine's locale.
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value.magnitude))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return value < 0 ? "-" + text : text
    }
}
