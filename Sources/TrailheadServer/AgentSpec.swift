import Foundation
import TrailheadAgent
import TrailheadSchema
import TripPlanner

/// One agent `agent serve` runs, described in data (the agents file, JSON):
///
///     {"agents": [
///       {"name": "trip-planner", "kind": "tripPlanner", "tools": ["poi", "calendar", "contacts"]},
///       {"name": "free-days", "instructions": "You find free days in the user's calendar.",
///        "tools": ["calendarFreeDays"],
///        "answer": {"type": "object", "properties": {"days": {"type": "array", "items": {"type": "string"}}}},
///        "grounding": [{"field": "/days/*", "tool": "calendarFreeDays", "values": "/freeDays/*"}],
///        "maxTurns": 6}
///     ]}
///
/// `tools` names plugins or single tools of the registry; `answer` is a JSON Schema (absent: the
/// answer is text); `grounding` holds `Grounding` rules (`"enough": N`, and `"distinct": true` for
/// a field whose values must all differ). A request's `model` names the agent.
/// The trip planner is built in (`"kind": "tripPlanner"`): its instructions, schema and grounding
/// are its own, and its prompt is a landmark or a JSON trip request.
public struct AgentSpec: Sendable {
    public enum Kind: String, Sendable { case generic, tripPlanner }

    public var name: String
    public var kind: Kind
    public var instructions: String
    public var tools: [String]
    public var answer: GenerationSchema?
    public var grounding: Grounding
    public var maximumTurns: Int
    public var maximumToolTurns: Int?
    public var includeSchemaInPrompt: Bool
    public var options: GenerationOptionsSpec

    /// The default when no agents file is given: the trip planner with the bundled plugins.
    public static let tripPlanner = AgentSpec(
        name: "trip-planner", kind: .tripPlanner, instructions: "", tools: TripPlanner.plugins, answer: nil,
        grounding: .none, maximumTurns: 10, maximumToolTurns: nil, includeSchemaInPrompt: false, options: .init(temperature: 0.2))

    /// Sampling settings an agent fixes (a request's own win).
    public struct GenerationOptionsSpec: Sendable {
        public var temperature: Double?
        public var seed: Int?
        public init(temperature: Double? = nil, seed: Int? = nil) {
            self.temperature = temperature
            self.seed = seed
        }
    }
}

/// An agents file that cannot be used, with where (`agents[1].answer: …`).
public struct AgentSpecError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension AgentSpec {
    /// Reads an agents file; every problem names the file and the JSON path.
    public static func load(path: String) throws(AgentSpecError) -> [AgentSpec] {
        guard let data = FileManager.default.contents(atPath: path) else { throw AgentSpecError("cannot read the agents file \(path)") }
        let content: GeneratedContent
        do { content = try GeneratedContent(json: data) } catch { throw AgentSpecError("\(path): not JSON: \(error)") }
        do { return try parse(content) } catch { throw AgentSpecError("\(path): \(error.message)") }
    }

    /// The agents of a parsed agents file.
    public static func parse(_ content: GeneratedContent) throws(AgentSpecError) -> [AgentSpec] {
        guard let list = content["agents"]?.arrayValue else { throw AgentSpecError("expected {\"agents\": [ … ]}") }
        var agents: [AgentSpec] = []
        for (index, item) in list.enumerated() {
            let agent = try parse(item, at: "agents[\(index)]")
            if agents.contains(where: { $0.name == agent.name }) { throw AgentSpecError("agents[\(index)].name: '\(agent.name)' is used twice") }
            agents.append(agent)
        }
        if agents.isEmpty { throw AgentSpecError("agents: the list is empty") }
        return agents
    }

    private static let knownKeys: Set<String> = [
        "name", "kind", "instructions", "tools", "answer", "grounding", "maxTurns", "maxToolTurns", "includeSchemaInPrompt", "temperature",
        "seed",
    ]

    static func parse(_ item: GeneratedContent, at path: String) throws(AgentSpecError) -> AgentSpec {
        guard let object = item.objectValue else { throw AgentSpecError("\(path): an agent is a JSON object") }
        if let unknown = object.keys.first(where: { !knownKeys.contains($0) }) {
            throw AgentSpecError("\(path).\(unknown): unknown member (known: \(knownKeys.sorted().joined(separator: ", ")))")
        }
        guard let name = item["name"]?.stringValue, name.range(of: #"^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$"#, options: .regularExpression) != nil else {
            throw AgentSpecError("\(path).name: a name of letters, digits, '.', '_', ':' or '-' (1–64) is required")
        }
        let kindName = item["kind"]?.stringValue ?? "generic"
        guard let kind = Kind(rawValue: kindName) else { throw AgentSpecError("\(path).kind: '\(kindName)' is not generic or tripPlanner") }
        var tools: [String] = []
        if let value = item["tools"] {
            guard let names = value.arrayValue?.compactMap(\.stringValue), names.count == value.arrayValue?.count else {
                throw AgentSpecError("\(path).tools: a list of plugin or tool names")
            }
            tools = names
        }
        var answer: GenerationSchema?
        if let schema = item["answer"] {
            do { answer = try GenerationSchema(json: schema) } catch { throw AgentSpecError("\(path).answer: \(error)") }
        }
        var rules: [Grounding.Rule] = []
        for (index, rule) in (item["grounding"]?.arrayValue ?? []).enumerated() {
            guard let field = rule["field"]?.stringValue, let tool = rule["tool"]?.stringValue, let values = rule["values"]?.stringValue else {
                throw AgentSpecError("\(path).grounding[\(index)]: {\"field\": POINTER, \"tool\": NAME, \"values\": POINTER} is required")
            }
            rules.append(.field(field, from: tool, at: values, enough: rule["enough"]?.intValue, distinct: rule["distinct"]?.boolValue ?? false))
        }
        func integer(_ key: String, _ range: ClosedRange<Int>) throws(AgentSpecError) -> Int? {
            guard let value = item[key] else { return nil }
            guard let number = value.intValue, range.contains(number) else {
                throw AgentSpecError("\(path).\(key): an integer from \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }
        let instructions = item["instructions"]?.stringValue ?? ""
        if kind == .generic, instructions.isEmpty { throw AgentSpecError("\(path).instructions: required for a generic agent") }
        return AgentSpec(
            name: name, kind: kind, instructions: instructions, tools: kind == .tripPlanner && item["tools"] == nil ? AgentSpec.tripPlanner.tools : tools,
            answer: answer, grounding: Grounding(rules), maximumTurns: try integer("maxTurns", 1...50) ?? 10,
            maximumToolTurns: try integer("maxToolTurns", 0...50), includeSchemaInPrompt: item["includeSchemaInPrompt"]?.boolValue ?? (kind == .generic),
            options: .init(temperature: item["temperature"]?.doubleValue ?? 0.2, seed: try integer("seed", 0...Int(Int32.max))))
    }
}
