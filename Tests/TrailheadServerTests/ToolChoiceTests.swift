import Testing
import TrailheadModels
import TrailheadSchema
@testable import TrailheadServer

/// A chat-completions request's `tool_choice` becomes the tool-calling mode of the agent's tools.
@Suite struct ToolChoiceTests {
    @Test func everyFormOfToolChoiceMapsToAMode() {
        let cases: [(GeneratedContent, ToolCallingMode?)] = [
            (["tool_choice": "auto"], .allowed),
            (["tool_choice": "required"], .required),
            (["tool_choice": "none"], .disallowed),
            (["tool_choice": ["type": "function", "function": ["name": "calendarFreeDays"]]], .named("calendarFreeDays")),
            ([:], nil),
        ]
        for (body, mode) in cases {
            #expect(AgentServer.options(body).toolCallingMode == mode, "\(body.jsonString)")
        }
    }
}
