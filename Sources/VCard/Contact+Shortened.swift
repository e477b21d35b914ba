extension Contact {
    /// The contact with every text field the model reads cut to at most `limit` characters,
    /// each cut field ending in a marker that says how much is missing ("… [cut: 3998000 more
    /// characters]"), and how many fields were cut. A 4 MB NOTE must not make every answer
    /// that lists its card too large to hand over.
    public func shortened(toCharacters limit: Int) -> (contact: Contact, cutFields: Int) {
        var cuts = 0
        func cut(_ text: String) -> String {
            // utf8.count is O(1) for native strings; most fields are far below any limit.
            guard text.utf8.count > limit, text.count > limit else { return text }
            cuts += 1
            let kept = text.prefix(limit)
            return kept + "… [cut: \(text.count - kept.count) more characters]"
        }
        var copy = self
        copy.formattedName = cut(formattedName)
        copy.nicknames = nicknames.map(cut)
        copy.emails = emails.map { TypedValue(cut($0.value), types: $0.types) }
        copy.phones = phones.map { TypedValue(cut($0.value), types: $0.types) }
        copy.addresses = addresses.map { address in
            var address = address
            address.locality = cut(address.locality)
            address.country = cut(address.country)
            address.street = cut(address.street)
            address.region = cut(address.region)
            return address
        }
        copy.categories = categories.map(cut)
        copy.note = note.map(cut)
        copy.organization = organization.map(cut)
        return (copy, cuts)
    }
}
