import Foundation
import TrailheadPluginKit
import TrailheadSchema
import VCard

/// `searchContacts`: finds the user's contacts by name, city, group or note.
struct SearchContactsTool: Tool {
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

    struct Arguments: Generable {
        var query: String
        var group: String?
        static let guides = GuideTable(CodingKeys.self, [
            .query: [.description("""
                Names, nicknames, cities, groups or note words; accents and case are ignored. \
                Separate several people with commas: each part finds its own matches, and the \
                words within one part must all match. Empty or "*" lists everyone.
                """)],
            .group: [.description("Only contacts in this group (a category of the address book).")],
        ])
    }

    struct Output: Generable {
        var contacts: [ContactCard]
        var omitted: Int?
        var hint: String?
        var warnings: [String]?
        static let guides = GuideTable(CodingKeys.self, [.omitted: [.minimum(1), .description("matches left out beyond the limit")]])
    }

    func call(arguments: Arguments) throws -> Output {
        let query = arguments.query, group = arguments.group
        let (snapshot, reloadProblem) = try book.current()
        var found = snapshot.search.search(query, group: group, limit: Self.limit)
        // A group the model guessed wrong ("my cousin" in friends; she is family): the matches in
        // the other groups, said so, rather than nobody.
        var outsideGroup = false
        if found.contacts.isEmpty, let group, !group.isEmpty, !query.trimmingCharacters(in: .whitespaces).isEmpty {
            let anywhere = snapshot.search.search(query, group: nil, limit: Self.limit)
            if !anywhere.contacts.isEmpty {
                found = anywhere
                outsideGroup = true
            }
        }
        // A question written as the query ("Dmitri likes to drink"): the contacts some word finds.
        var someWords = false
        if found.contacts.isEmpty {
            let relaxed = snapshot.search.searchAnyWord(query, limit: Self.limit)
            if !relaxed.contacts.isEmpty {
                found = relaxed
                someWords = true
            }
        }

        let listed = Self.withinBudget(found.contacts)
        var result = Output(contacts: listed.contacts)
        let omitted = found.omitted + found.contacts.count - listed.contacts.count
        if omitted > 0 { result.omitted = omitted }
        if found.contacts.isEmpty {
            result.hint = hint(query: query, group: group, search: snapshot.search)
        } else if someWords {
            result.hint = "no contact matches every word of '\(query)'\(outsideGroup ? "" : group.map { " in group '\($0)'" } ?? ""); these match some of them"
        } else if outsideGroup, let group {
            result.hint = "no contact in group '\(group)' matches '\(query)'; these match in other groups"
        }
        var warnings = snapshot.warnings.prefix(Self.warningLimit).map(\.description)
        if snapshot.warnings.count > Self.warningLimit {
            warnings.append("and \(snapshot.warnings.count - Self.warningLimit) more problems in the contacts file")
        }
        if let reloadProblem { warnings.insert(reloadProblem, at: 0) }
        if listed.cutFields > 0 {
            warnings.insert(
                "\(listed.cutFields) long field\(listed.cutFields == 1 ? " was" : "s were") cut to \(Self.fieldLimit) characters (marked '… [cut: N more characters]')", at: 0)
        }
        if listed.contacts.count < found.contacts.count {
            warnings.insert(
                "only \(listed.contacts.count) of \(found.contacts.count) matches fit in one answer; narrow the query or the group to see the rest", at: 0)
        }
        if !warnings.isEmpty { result.warnings = warnings }
        return result
    }

    /// The contacts as the model reads them, long fields cut, as many as fit in `resultBudget` bytes.
    static func withinBudget(_ contacts: [Contact]) -> (contacts: [ContactCard], cutFields: Int) {
        var listed: [ContactCard] = []
        var bytes = 0
        var cutFields = 0
        for contact in contacts {
            let (short, cuts) = contact.shortened(toCharacters: fieldLimit)
            let content = ContactCard(short)
            bytes += ((try? content.generatedContent().jsonString) ?? "").utf8.count
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
