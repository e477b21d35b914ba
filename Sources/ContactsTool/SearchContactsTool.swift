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

    var name: String { "searchContacts" }

    var description: String {
        """
        Looks up people in the user's address book. Use it whenever the user mentions people by \
        name (\"with Ana and Ben\"), a group (\"my friends\", \"family\") or a place (\"who lives in \
        San Diego\"), to learn where they live, how to reach them and notes such as diets or \
        fears. Returns name, home city, country, emails, phones, groups and note.
        """
    }

    var arguments: GeneratedContent {
        [
            "type": "object",
            "properties": [
                "query": [
                    "type": "string",
                    "description": """
                        Names, nicknames, cities, groups or note words, accents and case ignored. \
                        Separate several people with commas ("Ana, Ben"): each part finds its own \
                        matches; words within a part must all match ("Ana Lima"). Empty or "*" lists everyone.
                        """,
                ],
                "group": [
                    "type": "string",
                    "description": "Only contacts in this group (a vCard category such as friends, family, work).",
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

        var result: JSONObject = ["contacts": .array(found.contacts.map(ContactJSON.content))]
        if found.omitted > 0 { result["omitted"] = .number(Double(found.omitted)) }
        if found.contacts.isEmpty {
            result["hint"] = .string(hint(query: query, group: group, search: snapshot.search))
        }
        var warnings = snapshot.warnings.prefix(Self.warningLimit).map { GeneratedContent.string($0.description) }
        if snapshot.warnings.count > Self.warningLimit {
            warnings.append(.string("and \(snapshot.warnings.count - Self.warningLimit) more problems in the contacts file"))
        }
        if let reloadProblem { warnings.insert(.string(reloadProblem), at: 0) }
        if !warnings.isEmpty { result["warnings"] = .array(warnings) }
        return .object(result)
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
