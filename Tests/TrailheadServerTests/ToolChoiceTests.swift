import Foundation
import Testing
import TrailheadModels
import TrailheadSchema
@testable import TrailheadServer

/// A chat-completions request's `tool_choice` becomes the tool-calling mode of the agent's tools.
@Suite struct ToolChoiceTests {
    @Test func everyFormOfToolChoiceMapsToAMode() throws {
        let cases: [(GeneratedContent, ToolCallingMode?)] = [
            (["tool_choice": "auto"], .allowed),
            (["tool_choice": "required"], .required),
            (["tool_choice": "none"], .disallowed),
            (["tool_choice": ["type": "function", "function": ["name": "calendarFreeDays"]]], .named("calendarFreeDays")),
            ([:], nil),
        ]
        for (choice, mode) in cases {
            var body = choice.objectValue ?? [:]
            body["model"] = "free-days"
            body["messages"] = [["role": "user", "content": "hi"]]
            let request = try #require(try? InvalidRequest.decode(ChatCompletionRequest.self, from: Data(GeneratedContent.object(body).jsonString.utf8)))
            #expect(AgentServer.options(request).toolCallingMode == mode, "\(choice.jsonString)")
        }
    }
}
