import Testing
import TrailheadSchema
@testable import TrailheadServer

/// The agents file: agents in data, and a clear error naming where one is wrong.
@Suite struct AgentSpecTests {
    @Test func anAgentIsReadWithItsSchemaAndGrounding() throws {
        let agents = try AgentSpec.parse([
            "agents": [
                ["name": "trip-planner", "kind": "tripPlanner"],
                [
                    "name": "free-days", "instructions": "Find free days.", "tools": ["calendarFreeDays"],
                    "answer": ["type": "object", "properties": ["days": ["type": "array", "items": ["type": "string"]]]],
                    "grounding": [["field": "/days/*", "tool": "calendarFreeDays", "values": "/freeDays/*", "enough": 3, "distinct": true]], "maxTurns": 5,
                ],
            ],
        ])
        #expect(agents.map(\.name) == ["trip-planner", "free-days"])
        #expect(agents[0].kind == .tripPlanner && agents[0].tools == ["poi", "calendar", "contacts"])
        #expect(agents[1].answer != nil && agents[1].maximumTurns == 5)
        #expect(agents[1].grounding.rules == [.field("/days/*", from: "calendarFreeDays", at: "/freeDays/*", enough: 3, distinct: true)])
    }

    @Test(arguments: [
        (#"{"agent": []}"#, "expected {\"agents\": [ … ]}"),
        (#"{"agents": [{"name": "a b", "instructions": "x"}]}"#, "agents[0].name"),
        (#"{"agents": [{"name": "a"}]}"#, "agents[0].instructions: required"),
        (#"{"agents": [{"name": "a", "instructions": "x", "answer": {"type": "object", "patternProperties": {}}}]}"#, "agents[0].answer"),
        (#"{"agents": [{"name": "a", "instructions": "x", "tool": []}]}"#, "agents[0].tool: unknown member"),
        (#"{"agents": [{"name": "a", "instructions": "x"}, {"name": "a", "instructions": "y"}]}"#, "agents[1].name: 'a' is used twice"),
        (#"{"agents": [{"name": "a", "instructions": "x", "maxTurns": 0}]}"#, "agents[0].maxTurns"),
    ])
    func aBadAgentsFileSaysWhere(json: String, message: String) throws {
        let error = #expect(throws: AgentSpecError.self) { try AgentSpec.parse(try GeneratedContent(json: json)) }
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
    }
}
