import TrailheadPluginKit
import TrailheadSchema
import VCard

/// `searchContacts`: finds the user's contacts by name, city, group or note.
struct SearchContactsTool: PluginTool {
    let book: ContactBook

    /// Results a model reads at once; a larger address book is narrowed by query or group.
    static let limit = 50
    /// File warnings shown with results; the rest are counted.
    static let warningLimit = 5
    /// Characters kept of any one field (a note pasted from a document, a stray photo in NOTE).
    static let fieldLimit = 2_000
    /// Bytes of contacts in one answer: well under the 1 MiB a tool result may hold, so an
    /// address book with huge fields is shortened, never refused.
    static let resultBudget = 256 * 1024

    var name: String { "searchContacts" }

    var description: String {
        """
        Looks up people in the user's address book. Use it whenever the user mentions people by \
        name, a group of people or a place where people live, to learn where they live, how to reach \
        them and their notes (diets, fears, preferences). Returns name, home city, country, emails, \
        phones, groups and note.
        """
    }

    var arguments: GeneratedContent {
        [
            "type": "object",
            "properties": [
                "query": [
                    "type": "string",
                    "description": """
                        Names, nicknames, cities, groups or note words; accents and case are ignored. \
                        Separate several people with commas: each part finds its own matches, and the \
                        words within one part must all match. Empty or "*" lists everyone.
                        """,
                ],
                "group": [
                    "type": "string",
                    "description": "Only contacts in this group (a category of the address book).",
                ],
            ],
            "required": ["query"],
            "additionalProperties": false,
        ]
    }

    var output: GeneratedContent? {
        let strings: GeneratedContent = ["type": "array", "items": ["type": "string"]]
        return [
            "type": "object",
            "properties": [
                "contacts": [
                    "type": "array",
                    "items": [
                        "type": "object",
                        "properties": [
                            "name": ["type": "string"],
                            "homeCity": ["type": "string"],
                            "country": ["type": "string"],
                            "emails": strings,
                            "phones": strings,
                            "groups": strings,
                            "note": ["type": "string"],
                        ],
                        "required": ["name"],
                        "additionalProperties": false,
                    ],
                ],
                "omitted": ["type": "integer", "minimum": 1, "description": "matches left out beyond the limit"],
                "hint": ["type": "string"],
                "warnings": strings,
            ],
            "required": ["contacts"],
            "additionalProperties": false,
        ]
    }

    func call(_ arguments: GeneratedContent) throws -> GeneratedContent {
        let query = arguments["query"]?.stringValue ?? ""
        let group = arguments["group"]?.stringValue
        let (snapshot, reloadProblem) = try book.current()
        let found = snapshot.search.search(query, group: group, limit: Self.limit)

        let listed = Self.withinBudget(found.contacts)
        var result: JSONObject = ["contacts": .array(listed.contacts)]
        let omitted = found.omitted + found.contacts.count - listed.contacts.count
        if omitted > 0 { result["omitted"] = .number(Double(omitted)) }
        if found.contacts.isEmpty {
            result["hint"] = .string(hint(query: query, group: group, search: snapshot.search))
        }
        var warnings = snapshot.warnings.prefix(Self.warningLimit).map { GeneratedContent.string($0.description) }
        if snapshot.warnings.count > Self.warningLimit {
            warnings.append(.string("and \(snapshot.warnings.count - Self.warningLimit) more problems in the contacts file"))
        }
        if let reloadProblem { warnings.insert(.string(reloadProblem), at: 0) }
        if listed.cutFields > 0 {
            warnings.insert(.string(
                "\(listed.cutFields) long field\(listed.cutFields == 1 ? " was" : "s were") cut to \(Self.fieldLimit) characters (marked '… [cut: N more characters]')"), at: 0)
        }
        if listed.contacts.count < found.contacts.count {
            warnings.insert(.string(
                "only \(listed.contacts.count) of \(found.contacts.count) matches fit in one answer; narrow the query or the group to see the rest"), at: 0)
        }
        if !warnings.isEmpty { result["warnings"] = .array(warnings) }
        return .object(result)
    }

    /// The contacts as JSON, long fields cut, as many as fit in `resultBudget` bytes.
    static func withinBudget(_ contacts: [Contact]) -> (contacts: [GeneratedContent], cutFields: Int) {
        var listed: [GeneratedContent] = []
        var bytes = 0
        var cutFields = 0
        for contact in contacts {
            let (short, cuts) = contact.shortened(toCharacters: fieldLimit)
            let content = ContactJSON.content(short)
            bytes += content.jsonString.utf8.count
            if bytes > resultBudget, !listed.isEmpty { break }
            listed.append(content)
            cutFields += cuts
        }
        return (listed, cutFields)
    }

    /// Tells the model what it can try instead of guessing.
    private func hint(query: String, group: String?, search: ContactSearch) -> String {
        let groups = search.groups
        let known = groups.isEmpty ? "no contact has a group" : "groups: \(groups.joined(separator: ", "))"
        if let group, !group.isEmpty, search.search("", group: group, limit: 1).contacts.isEmpty {
            return "no contact is in group '\(group)'; \(known)"
        }
        return "no contact matches '\(query)'\(group.map { " in group '\($0)'" } ?? ""); try fewer words or a name; \(known)"
    }
}
