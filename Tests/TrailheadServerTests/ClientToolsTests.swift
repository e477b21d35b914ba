import Foundation
import TrailheadAgent
import TrailheadSchema
import TrailheadSupport
import TrailheadTestSupport
import XCTest

/// Client-side tools over the OpenAI API, as real clients use them: the official `openai` Python
/// client and the OpenAI Agents SDK (both from PyPI, in the project's venv) against `agent serve`
/// on a scripted plain model (`local`) whose first turn calls the client's functions.
final class ClientToolsTests: XCTestCase {
    static let weather = ToolCallRequest(tool: "get_weather", arguments: ["city": "Paris"])
    static let time = ToolCallRequest(tool: "get_time", arguments: ["timezone": "Asia/Tokyo"])
    static let answer = "It is 18 degrees in Paris and 9 pm in Tokyo."
    static let agents = #"{"agents": [{"name": "helper", "instructions": "You help."}]}"#

    /// A server whose model's turns are `turns` (step texts), replayed per conversation.
    func serve(_ turns: [String]) throws -> ServeProcess {
        let folder = try Scratch.newFolder()
        try ServeFixtures.write(Self.agents, to: folder + "/agents.json")
        let lines = turns.map { GeneratedContent.object(["text": .string($0)]).jsonString }
        try ServeFixtures.write(lines.joined(separator: "\n"), to: folder + "/script.jsonl")
        return try ServeProcess(["--agents", folder + "/agents.json", "--model", "scripted:\(folder)/script.jsonl", "--store", folder + "/sessions"])
    }

    func run(_ script: String, _ arguments: [String], serve: ServeProcess) throws -> GeneratedContent {
        let path = Checkout.path("Tests/TrailheadServerTests/Clients/\(script)")
        let run = try ChildProcess.run(try TrailheadCache.python(), [path, serve.baseURL] + arguments, timeLimit: 50)
        XCTAssertEqual(run.status, 0, "\(script) failed: \(run.stderr)\nserver: \(serve.output)")
        return try GeneratedContent(json: run.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func testTheOpenAIClientGetsToolCallsStreamedAndNotAlikeAndContinuesWithTheirOutputs() throws {
        let serve = try serve([
            LanguageModelSession.stepText(calling: [Self.weather, Self.time]), LanguageModelSession.stepText(answering: .string(Self.answer)),
        ])
        let seen = try run("client_tools.py", ["local", "full"], serve: serve)
        let calls: GeneratedContent = [["name": "get_weather", "arguments": ["city": "Paris"]], ["name": "get_time", "arguments": ["timezone": "Asia/Tokyo"]]]
        // (client_tools.py asserts the streamed calls equal the non-streamed ones for each tool_choice.)
        XCTAssertEqual(seen["chat_calls"], calls)
        XCTAssertEqual(seen["helper_calls"], calls, "the client's stream helper assembles the same calls")
        XCTAssertEqual(seen["chat_answer"]?.stringValue, Self.answer)
        XCTAssertEqual(seen["chat_finish"]?.stringValue, "stop")
        XCTAssertEqual(seen["chat_streamed_answer"]?.stringValue, Self.answer)
        XCTAssertEqual(seen["responses_calls"], calls)
        XCTAssertEqual(seen["responses_streamed_calls"], calls)
        for event in ["response.created", "response.output_item.added", "response.function_call_arguments.delta", "response.function_call_arguments.done",
                      "response.output_item.done", "response.completed"] {
            XCTAssertTrue(seen["responses_events"]?.arrayValue?.contains(.string(event)) == true, event)
        }
        XCTAssertEqual(seen["responses_answer"]?.stringValue, Self.answer)
        XCTAssertEqual(seen["responses_streamed_answer"]?.stringValue, Self.answer)
        XCTAssertEqual(seen["responses_previous"], true)
        XCTAssertEqual(seen["bad_request"], ["status": 400, "param": "tool_choice"])
    }

    func testANamedToolChoiceAndNoParallelCallsGiveOneCall() throws {
        let serve = try serve([LanguageModelSession.stepText(calling: [Self.weather])])
        let seen = try run("client_tools.py", ["local", "named"], serve: serve)
        let one: GeneratedContent = [["name": "get_weather", "arguments": ["city": "Paris"]]]
        XCTAssertEqual(seen["named_calls"], [one, one])
    }

    func testTheOpenAIAgentsSDKRunsAnAgentWithTwoFunctionToolsOverChatCompletionsAndResponsesStreamedAndNot() throws {
        let serve = try serve([
            LanguageModelSession.stepText(calling: [Self.weather, Self.time]), LanguageModelSession.stepText(answering: .string(Self.answer)),
        ])
        let seen = try run("agents_sdk.py", ["local"], serve: serve)
        let runs = seen["runs"]?.arrayValue ?? []
        XCTAssertEqual(runs.count, 4, "chat completions and responses, each plain and streamed")
        for run in runs {
            XCTAssertEqual(run["called"], [["name": "get_weather", "arguments": ["city": "Paris"]], ["name": "get_time", "arguments": ["timezone": "Asia/Tokyo"]]], run.jsonString)
            XCTAssertEqual(run["final"]?.stringValue, Self.answer, run.jsonString)
            XCTAssertEqual(run["items"]?.arrayValue?.last, "message_output_item", run.jsonString)
        }
    }

    /// A malformed request is a 400 that says which field is wrong.
    func testAFunctionSchemaWithKeywordsThatAreNotJSONSchemasIsTakenAsOpenAIsAPITakesIt() throws {
        let serve = try serve([LanguageModelSession.stepText(calling: [Self.weather])])
        func weatherTool(city: GeneratedContent) -> GeneratedContent {
            [
                "type": "function",
                "function": [
                    "name": "get_weather", "description": "The weather in a city.",
                    "parameters": ["type": "object", "properties": ["city": city, "unit": ["type": "string", "optional": true]], "required": ["city"]],
                ],
            ]
        }
        let question: GeneratedContent = [["role": "user", "content": "Weather in Paris?"]]
        let (status, answer) = try serve.post("/chat/completions", ["model": "local", "messages": question, "tools": [weatherTool(city: ["type": "string", "optional": false])]])
        XCTAssertEqual(status, 200, answer.jsonString)
        let call = answer["choices"]?.arrayValue?.first?["message"]?["tool_calls"]?.arrayValue?.first?["function"]
        XCTAssertEqual(call?["name"]?.stringValue, "get_weather", answer.jsonString)
        XCTAssertEqual(try GeneratedContent(json: call?["arguments"]?.stringValue ?? ""), ["city": "Paris"])
        let refused = weatherTool(city: ["type": "string", "if": ["type": "string"]])
        let (refusedStatus, refusal) = try serve.post("/chat/completions", ["model": "local", "messages": question, "tools": [refused]])
        XCTAssertEqual(refusedStatus, 400, "JSON Schema's own keyword outside the subset is still refused: \(refusal.jsonString)")
        XCTAssertEqual(refusal["error"]?["param"]?.stringValue, "tools[0].function.parameters")
    }

    func testAMalformedRequestNamesTheField() throws {
        let serve = try serve([LanguageModelSession.stepText(calling: [Self.weather])])
        let cases: [(GeneratedContent, String)] = [
            (["messages": [["role": "user", "content": "hi"]]], "model"),
            (["model": "local", "messages": [["role": "robot", "content": "hi"]]], "messages[0].role"),
            (["model": "local", "messages": [["role": "user", "content": 3]]], "messages[0].content"),
            (["model": "local", "messages": [["role": "user", "content": "hi"]], "tools": [["type": "function", "function": ["name": "a b"]]]],
             "tools[0].function.name"),
            (["model": "local", "messages": [["role": "user", "content": "hi"]], "tools": [["type": "function", "function": ["name": "f", "parameters": ["type": 7]]]]],
             "tools[0].function.parameters"),
            (["model": "local", "messages": [["role": "user", "content": "hi"], ["role": "tool", "tool_call_id": "x", "content": "1"]]], "messages[1]"),
            (["model": "local", "messages": [["role": "user", "content": "hi"]], "stream": "yes"], "stream"),
        ]
        for (body, param) in cases {
            let (status, answer) = try serve.post("/chat/completions", body)
            XCTAssertEqual(status, 400, body.jsonString)
            XCTAssertEqual(answer["error"]?["param"]?.stringValue, param, answer.jsonString)
            XCTAssertEqual(answer["error"]?["type"]?.stringValue, "invalid_request_error")
        }
        let responses: [(GeneratedContent, String)] = [
            (["model": "local", "input": [["type": "image", "url": "x"]]], "input[0].type"),
            (["model": "local", "input": "hi", "text": ["format": ["type": "xml"]]], "text.format.type"),
            (["model": "local", "input": "hi", "tools": [["type": "function"]]], "tools[0].name"),
            (["model": "local", "input": "hi", "previous_response_id": "nope"], "previous_response_id"),
        ]
        for (body, param) in responses {
            let (status, answer) = try serve.post("/responses", body)
            XCTAssertEqual(status, 400, body.jsonString)
            XCTAssertEqual(answer["error"]?["param"]?.stringValue, param, answer.jsonString)
        }
    }
}
