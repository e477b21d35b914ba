/// Builds a `Contact` from the properties of one card.
///
/// Only the properties Trailhead uses are decoded, so a bad value in one it ignores (a broken
/// PHOTO, an odd X- extension) does not cost the whole card. A bad value in one it uses
/// (quoted-printable that does not decode) skips the card: half a contact would mislead.
struct CardBuilder {
    struct Problem: Error {
        var message: String
    }

    let startLine: Int
    let properties: [ContentLine]
    /// Fallbacks taken while decoding (a value that was not UTF-8…), one per kind.
    private(set) var notes: [String] = []

    init(startLine: Int, properties: [ContentLine]) {
        self.startLine = startLine
        self.properties = properties
    }

    /// The best name for messages about this card, read leniently; nil when there is none.
    func nameForMessages() -> String? {
        var scratch = self
        if let line = properties.first(where: { $0.name == "FN" }), let text = try? scratch.text(of: line) {
            let name = TextValue.unescape(text).trimmingSpaces
            if !name.isEmpty { return name }
        }
        if let line = properties.first(where: { $0.name == "N" }), let text = try? scratch.text(of: line) {
            let name = Self.nameComponents(text).displayName
            if !name.isEmpty { return name }
        }
        return nil
    }

    mutating func build() throws(Problem) -> Contact {
        var contact = Contact(formattedName: "", lineNumber: startLine)
        let labels = try groupLabels()
        for line in properties {
            switch line.name {
            case "FN":
                if contact.formattedName.isEmpty { contact.formattedName = try unescapedText(of: line) }
            case "N":
                if contact.name.isEmpty, let text = try text(of: line) { contact.name = Self.nameComponents(text) }
            case "NICKNAME":
                if let text = try text(of: line) { contact.nicknames.append(contentsOf: TextValue.list(text)) }
            case "EMAIL":
                let value = try unescapedText(of: line)
                if !value.isEmpty { contact.emails.append(TypedValue(value, types: types(of: line, labels: labels))) }
            case "TEL":
                var value = try unescapedText(of: line)
                if value.lowercased().hasPrefix("tel:") { value = String(value.dropFirst(4)) }  // 4.0 VALUE=uri
                if !value.isEmpty { contact.phones.append(TypedValue(value, types: types(of: line, labels: labels))) }
            case "ADR":
                if let text = try text(of: line) {
                    var address = Self.address(text)
                    address.types = types(of: line, labels: labels)
                    if address != PostalAddress(types: address.types) { contact.addresses.append(address) }
                }
            case "CATEGORIES":
                if let text = try text(of: line) {
                    for category in TextValue.list(text) where !contact.categories.contains(category) {
                        contact.categories.append(category)
                    }
                }
            case "NOTE":
                let note = try unescapedText(of: line)
                if !note.isEmpty { contact.note = contact.note.map { $0 + "\n" + note } ?? note }
            case "ORG":
                if contact.organization == nil, let text = try text(of: line) {
                    let organization = TextValue.components(text, joiner: ", ").filter { !$0.isEmpty }.joined(separator: ", ")
                    if !organization.isEmpty { contact.organization = organization }
                }
            case "BDAY":
                if contact.birthday == nil { contact.birthday = try nonEmpty(unescapedText(of: line)) }
            case "UID":
                if contact.uid == nil { contact.uid = try nonEmpty(unescapedText(of: line)) }
            default:
                continue
            }
        }
        if contact.formattedName.isEmpty { contact.formattedName = contact.name.displayName }
        guard !contact.formattedName.isEmpty else {
            throw Problem(message: "no name (neither FN nor N has a value)")
        }
        return contact
    }

    // MARK: - Values

    /// The decoded text of a property, escapes still in place; nil for binary (base64) values.
    private mutating func text(of line: ContentLine) throws(Problem) -> String? {
        var bytes = Array(line.rawValue)
        switch line.parameter("ENCODING")?.uppercased() {
        case "QUOTED-PRINTABLE":
            do {
                bytes = try QuotedPrintable.decode(line.rawValue)
            } catch {
                throw Problem(message: "line \(line.lineNumber) (\(line.name)): \(error.message)")
            }
        case "B", "BASE64":
            return nil
        default:
            break
        }
        let decoded = TextDecoding.decode(bytes, charset: line.parameter("CHARSET"))
        if let fallback = decoded.fallback, !notes.contains(fallback) { notes.append(fallback) }
        return decoded.text
    }

    private mutating func unescapedText(of line: ContentLine) throws(Problem) -> String {
        guard let text = try text(of: line) else { return "" }
        return TextValue.unescape(text).trimmingSpaces
    }

    /// Apple writes a custom label beside a grouped property: `item1.EMAIL:…` + `item1.X-ABLabel:_$!<Home>!$_`.
    private mutating func groupLabels() throws(Problem) -> [String: String] {
        var labels: [String: String] = [:]
        for line in properties where line.name == "X-ABLABEL" {
            guard let group = line.group else { continue }
            var label = try unescapedText(of: line)
            if label.hasPrefix("_$!<"), label.hasSuffix(">!$_") { label = String(label.dropFirst(4).dropLast(4)) }
            if !label.isEmpty { labels[group.lowercased()] = label.lowercased() }
        }
        return labels
    }

    private func types(of line: ContentLine, labels: [String: String]) -> [String] {
        var types = line.types
        if let group = line.group?.lowercased(), let label = labels[group], !types.contains(label) { types.append(label) }
        return types
    }

    private func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }

    static func nameComponents(_ text: String) -> NameComponents {
        let parts = TextValue.components(text, joiner: " ")
        func part(_ index: Int) -> String { index < parts.count ? parts[index] : "" }
        return NameComponents(family: part(0), given: part(1), additional: part(2), prefixes: part(3), suffixes: part(4))
    }

    static func address(_ text: String) -> PostalAddress {
        let parts = TextValue.components(text, joiner: ", ")
        func part(_ index: Int) -> String { index < parts.count ? parts[index] : "" }
        return PostalAddress(
            poBox: part(0), extended: part(1), street: part(2), locality: part(3),
            region: part(4), postalCode: part(5), country: part(6))
    }
}
