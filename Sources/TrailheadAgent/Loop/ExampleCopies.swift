import TrailheadSchema

/// "Here is an example, but don't copy it", held by the session: a text of the instructions'
/// examples (`Instructions.examples`) in the final answer is a repair, unless the request, a tool
/// or the answer's own schema says it too (the example's destination may well be this trip's).
///
/// Only texts of two words or more count: a single word ("sightseeing") is a choice the schema
/// offers, not something made up. Seen without it: asked for three days in Joshua Tree, the 1.5B
/// model planned "The Restaurant at Lake Kawaguchi", the Mount Fuji example's, for every day.
struct ExampleCopies: Sendable {
    /// The examples' texts, folded (`Grounding.fold`).
    private let texts: Set<String>
    /// What the request and the tools said, folded: a copy of it is no copy of the example.
    private var said: [String]

    init(examples: [GeneratedContent], request: String) {
        var texts = Set<String>()
        for example in examples {
            Self.forEachString(in: example, at: .root) { text, _ in
                if text.split(separator: " ").count >= 2 { texts.insert(Grounding.fold(text)) }
            }
        }
        self.texts = texts
        self.said = [Grounding.fold(request)]
    }

    /// A tool's result or error, which the answer may repeat.
    mutating func heard(_ content: GeneratedContent?) {
        guard !texts.isEmpty, let content else { return }
        said.append(Grounding.fold(content.stringValue ?? content.jsonString))
    }

    /// One problem for each text of `answer` that copies an example, with its place in the
    /// answer; `schema` is the answer's schema as offered (its allowed values are not copies).
    func problems(in answer: GeneratedContent, schema: GeneratedContent) -> [String] {
        guard !texts.isEmpty else { return [] }
        let offered = Grounding.fold(schema.jsonString)
        var problems: [String] = []
        Self.forEachString(in: answer, at: .root) { text, path in
            let folded = Grounding.fold(text)
            guard texts.contains(folded), !said.contains(where: { $0.contains(folded) }), !offered.contains(folded) else { return }
            problems.append("\(path): \"\(text)\" is the instructions' example, not this request's: write your own, from the request and the tools' results")
        }
        return problems
    }

    private static func forEachString(in content: GeneratedContent, at path: JSONPath, _ body: (String, JSONPath) -> Void) {
        switch content {
        case .string(let text): body(text, path)
        case .array(let items): for (index, item) in items.enumerated() { forEachString(in: item, at: path.appending(String(index)), body) }
        case .object(let members): for (name, member) in members { forEachString(in: member, at: path.appending(name), body) }
        default: break
        }
    }
}
