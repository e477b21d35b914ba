import TrailheadSchema

/// Reads one JSON object's members with their JSON pointer, so every error names its field.
struct ManifestReader {
    let pointer: String
    private let members: JSONObject

    init(_ value: GeneratedContent, at pointer: String) throws(ManifestError) {
        guard case .object(let members) = value else {
            throw ManifestError(pointer: pointer, message: "expected an object, got \(value.typeName)")
        }
        self.pointer = pointer
        self.members = members
    }

    func path(_ key: String) -> String { pointer + "/" + key }

    /// Refuses members outside `known`, which are most often misspellings (`timeoutMS`).
    func rejectUnknown(_ known: Set<String>) throws(ManifestError) {
        for key in members.keys where !known.contains(key) {
            throw ManifestError(
                pointer: path(key), message: "unknown member '\(key)' (known: \(known.sorted().joined(separator: ", ")))")
        }
    }

    func optional(_ key: String) -> GeneratedContent? { members[key] }

    func required(_ key: String) throws(ManifestError) -> GeneratedContent {
        guard let value = members[key] else { throw ManifestError(pointer: path(key), message: "missing required member '\(key)'") }
        return value
    }

    func string(_ key: String) throws(ManifestError) -> String {
        try Self.string(try required(key), at: path(key))
    }

    func optionalString(_ key: String) throws(ManifestError) -> String? {
        guard let value = members[key] else { return nil }
        return try Self.string(value, at: path(key))
    }

    func bool(_ key: String, default fallback: Bool) throws(ManifestError) -> Bool {
        guard let value = members[key] else { return fallback }
        guard case .bool(let flag) = value else {
            throw ManifestError(pointer: path(key), message: "expected a boolean, got \(value.typeName)")
        }
        return flag
    }

    func integer(_ key: String, default fallback: Int?, in range: ClosedRange<Int>) throws(ManifestError) -> Int {
        guard let value = members[key] else {
            if let fallback { return fallback }
            throw ManifestError(pointer: path(key), message: "missing required member '\(key)'")
        }
        guard let number = value.intValue, range.contains(number) else {
            throw ManifestError(
                pointer: path(key), message: "expected an integer in \(range.lowerBound)...\(range.upperBound), got \(value.jsonString)")
        }
        return number
    }

    func array(_ key: String) throws(ManifestError) -> [GeneratedContent] {
        let value = try required(key)
        guard case .array(let items) = value else {
            throw ManifestError(pointer: path(key), message: "expected an array, got \(value.typeName)")
        }
        return items
    }

    func oneOf<T: RawRepresentable<String>>(_ key: String, default fallback: T?, _ cases: [T]) throws(ManifestError) -> T {
        guard let value = members[key] else {
            if let fallback { return fallback }
            throw ManifestError(pointer: path(key), message: "missing required member '\(key)'")
        }
        return try Self.oneOf(value, at: path(key), cases)
    }

    static func string(_ value: GeneratedContent, at pointer: String) throws(ManifestError) -> String {
        guard case .string(let text) = value else {
            throw ManifestError(pointer: pointer, message: "expected a string, got \(value.typeName)")
        }
        return text
    }

    static func oneOf<T: RawRepresentable<String>>(_ value: GeneratedContent, at pointer: String, _ cases: [T]) throws(ManifestError) -> T {
        let names = cases.map(\.rawValue)
        guard case .string(let text) = value, let match = T(rawValue: text), names.contains(text) else {
            throw ManifestError(pointer: pointer, message: "expected one of \(names.joined(separator: ", ")), got \(value.jsonString)")
        }
        return match
    }
}
