import TrailheadSchema

/// Small readers of JSON stored in the index (landmark aliases are a JSON array of strings).
enum GeneratedContentArray {
    static func strings(fromJSON text: String) throws -> [String] {
        (try GeneratedContent(json: text).arrayValue ?? []).compactMap(\.stringValue)
    }
}
