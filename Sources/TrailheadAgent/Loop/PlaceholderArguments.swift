import Foundation
import TrailheadSchema

/// Optional arguments the model filled with a placeholder, left out before the call.
///
/// A small model writes every parameter it sees, and fills the ones the request says nothing
/// about with "None", "null", "", "N/A", "unknown" or "any": `searchContacts {"query": "Ben",
/// "group": "None"}` found nobody (no group is called "None") and the model answered that Ben is
/// not in the address book. An optional parameter left out means "not given", which is what the
/// model meant; a required one is left alone (validation and the tool judge it), and so is a
/// value the parameter's `enum` or `const` lists.
enum PlaceholderArguments {
    static let placeholders: Set<String> = ["none", "null", "nil", "", "n/a", "na", "unknown", "any", "unspecified", "not specified", "undefined"]

    /// `arguments` without its optional members whose value is a placeholder (or `null`, which
    /// an optional parameter does not list), and those members as `name: value`.
    static func drop(from arguments: GeneratedContent, schema: GeneratedContent) -> (arguments: GeneratedContent, dropped: [String]) {
        guard case .object(var members) = arguments, case .object(let properties)? = schema["properties"] else { return (arguments, []) }
        let required = Set((schema["required"]?.arrayValue ?? []).compactMap(\.stringValue))
        var dropped: [String] = []
        for (name, value) in members where !required.contains(name) && isPlaceholder(value, for: properties[name]) {
            members[name] = nil
            dropped.append("\(name): \(value.jsonString)")
        }
        return dropped.isEmpty ? (arguments, []) : (.object(members), dropped)
    }

    static func isPlaceholder(_ value: GeneratedContent, for property: GeneratedContent?) -> Bool {
        if property?["enum"]?.arrayValue?.contains(value) == true || property?["const"] == value { return false }
        switch value {
        case .null: return true
        case .string(let text): return placeholders.contains(text.trimmingCharacters(in: .whitespaces).lowercased())
        default: return false
        }
    }
}
