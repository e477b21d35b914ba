/// A card that is a group, not a person: vCard 4.0 `KIND:group` with `MEMBER`s (or Apple's
/// `X-ADDRESSBOOKSERVER-KIND` / `X-ADDRESSBOOKSERVER-MEMBER`). Its members get its name as a
/// category, so groups read the same whether written as CATEGORIES or as group cards.
struct GroupCard {
    var name: String
    /// Member UIDs, without `urn:uuid:`, lowercased.
    var memberUIDs: Set<String>

    init?(properties: [ContentLine]) {
        func text(_ line: ContentLine) -> String {
            TextValue.unescape(TextDecoding.decode(line.rawValue, charset: line.parameter("CHARSET")).text).trimmingSpaces
        }
        guard let kind = properties.first(where: { $0.name == "KIND" || $0.name == "X-ADDRESSBOOKSERVER-KIND" }),
              text(kind).lowercased() == "group"
        else { return nil }
        name = properties.first { $0.name == "FN" }.map(text) ?? ""
        memberUIDs = Set(properties.filter { $0.name == "MEMBER" || $0.name == "X-ADDRESSBOOKSERVER-MEMBER" }.map {
            Self.normalizedUID(text($0))
        })
    }

    static func normalizedUID(_ uid: String) -> String {
        var uid = uid.lowercased()
        if uid.hasPrefix("urn:uuid:") { uid.removeFirst("urn:uuid:".count) }
        return uid
    }

    static func apply(_ groups: [GroupCard], to contacts: inout [Contact]) {
        for group in groups where !group.name.isEmpty {
            for index in contacts.indices {
                guard let uid = contacts[index].uid, group.memberUIDs.contains(normalizedUID(uid)) else { continue }
                if !contacts[index].categories.contains(where: { $0.lowercased() == group.name.lowercased() }) {
                    contacts[index].categories.append(group.name)
                }
            }
        }
    }
}
