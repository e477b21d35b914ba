import Foundation

/// The value of one schema keyword, checked for the shape the keyword needs. Each check names
/// the keyword and its pointer when the value is malformed.
struct KeywordValue {
    let keyword: String
    let value: GeneratedContent
    let pointer: String

    func error(_ message: String) -> SchemaError {
        SchemaError(keyword: keyword, pointer: pointer, message: "\(keyword) \(message)")
    }

    func string() throws(SchemaError) -> String {
        guard case .string(let s) = value else { throw error("must be a string, got \(value.typeName)") }
        return s
    }

    func bool() throws(SchemaError) -> Bool {
        guard case .bool(let b) = value else { throw error("must be a boolean, got \(value.typeName)") }
        return b
    }

    func number() throws(SchemaError) -> Double {
        guard case .number(let n) = value else { throw error("must be a number, got \(value.typeName)") }
        return n
    }

    /// A non-negative integer (`1.0` counts, as JSON Schema says).
    func count() throws(SchemaError) -> Int {
        guard case .number(let n) = value, n.isWholeNumber, n >= 0, let i = Int(exactly: n) else {
            throw error("must be a non-negative integer, got \(value.jsonString.prefix(40))")
        }
        return i
    }

    func array() throws(SchemaError) -> [GeneratedContent] {
        guard case .array(let a) = value else { throw error("must be an array, got \(value.typeName)") }
        return a
    }

    func nonEmptyArray() throws(SchemaError) -> [GeneratedContent] {
        let a = try array()
        guard !a.isEmpty else { throw error("must be a non-empty array") }
        return a
    }

    func object() throws(SchemaError) -> JSONObject {
        guard case .object(let o) = value else { throw error("must be an object, got \(value.typeName)") }
        return o
    }

    func uniqueStrings() throws(SchemaError) -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        for element in try array() {
            guard case .string(let s) = element else { throw error("must hold only strings, got \(element.typeName)") }
            guard seen.insert(s).inserted else { throw error("lists \"\(s)\" twice") }
            result.append(s)
        }
        return result
    }

    func typeSet() throws(SchemaError) -> JSONTypeSet {
        func one(_ name: GeneratedContent) throws(SchemaError) -> JSONTypeSet {
            guard case .string(let s) = name, let type = JSONTypeSet(name: s) else {
                let known = JSONTypeSet.named.map(\.0).joined(separator: ", ")
                throw error("must name one of \(known); got \(name.jsonString.prefix(40))")
            }
            return type
        }
        guard case .array(let names) = value else { return try one(value) }
        guard !names.isEmpty else { throw error("must not be an empty array") }
        var result: JSONTypeSet = []
        for name in names {
            let type = try one(name)
            guard !result.contains(type) else { throw error("lists \(name.jsonString) twice") }
            result.insert(type)
        }
        return result
    }

    func pattern() throws(SchemaError) -> CompiledPattern {
        let source = try string()
        do {
            let regex = try NSRegularExpression(pattern: ECMARegexTranslation.icuPattern(for: source))
            return CompiledPattern(source: source, regex: regex)
        } catch {
            throw self.error("\"\(source)\" is not a valid regular expression")
        }
    }
}
