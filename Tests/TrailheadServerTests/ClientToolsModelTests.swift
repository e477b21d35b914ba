import Foundation
import TrailheadSchema
import TrailheadSupport
import TrailheadTestSupport
import XCTest

/// Client-side tools on the real test model through `agent serve`.
final class ClientToolsModelTests: XCTestCase {
    /// On a real model (SmolLM2-135M on the managed llama-server) what the runtime guarantees, not
    /// what a tiny model chooses: `required` makes calls whose arguments validate, a named function
    /// is the one called, `parallel_tool_calls: false` one call at most, a `max_tokens` cut is
    /// `finish_reason: "length"` (inside a call or in text). (`none` is left out: this
    /// model's free text runs on until the repetition guard stops it.)
    func testOnTheTestModelToolChoiceIsEnforcedAndArgumentsValidate() throws {
        let folder = try Scratch.newFolder()
        try ServeFixtures.write(ClientToolsTests.agents, to: folder + "/agents.json")
        let serve = try ServeProcess(["--agents", folder + "/agents.json", "--model", "local:test", "--store", folder + "/sessions"])
        let tools: GeneratedContent = [
            ["type": "function", "function": [
                "name": "get_weather", "description": "The weather in a city now.",
                "parameters": ["type": "object", "properties": ["city": ["type": "string"], "unit": ["type": "string", "enum": ["c", "f"]]], "required": ["city"]],
            ]],
            ["type": "function", "function": [
                "name": "get_time", "description": "The time in a time zone now.",
                "parameters": ["type": "object", "properties": ["timezone": ["type": "string"]], "required": ["timezone"]],
            ]],
        ]
        func ask(_ extra: JSONObject) throws -> GeneratedContent {
            var body: JSONObject = [
                "model": "local", "messages": [["role": "user", "content": "What is the weather in Paris?"]], "tools": tools, "temperature": 0, "seed": 1,
            ]
            for (key, value) in extra { body[key] = value }
            let (status, answer) = try serve.post("/chat/completions", .object(body), timeout: 120)
            XCTAssertEqual(status, 200, answer.jsonString + serve.output)
            XCTAssertNotNil(answer["usage"]?["prompt_tokens_details"]?["cached_tokens"]?.intValue, answer.jsonString)
            return answer["choices"]?.arrayValue?.first ?? .null
        }
        func calls(_ choice: GeneratedContent) throws -> [(name: String, arguments: GeneratedContent)] {
            try (choice["message"]?["tool_calls"]?.arrayValue ?? []).map { call in
                let arguments = try GeneratedContent(json: call["function"]?["arguments"]?.stringValue ?? "")
                XCTAssertTrue(call["id"]?.stringValue?.hasPrefix("call_") == true)
                return (call["function"]?["name"]?.stringValue ?? "", arguments)
            }
        }
        func validate(_ call: (name: String, arguments: GeneratedContent)) {
            switch call.name {
            case "get_weather":
                XCTAssertNotNil(call.arguments["city"]?.stringValue, call.arguments.jsonString)
                if let unit = call.arguments["unit"] { XCTAssertTrue(unit == "c" || unit == "f", call.arguments.jsonString) }
            case "get_time":
                XCTAssertNotNil(call.arguments["timezone"]?.stringValue, call.arguments.jsonString)
            default:
                XCTFail("a call of '\(call.name)', which the request does not offer")
            }
        }

        let required = try ask(["tool_choice": "required"])
        XCTAssertEqual(required["finish_reason"]?.stringValue, "tool_calls", required.jsonString)
        let made = try calls(required)
        XCTAssertFalse(made.isEmpty)
        made.forEach(validate)

        let named = try ask(["tool_choice": ["type": "function", "function": ["name": "get_time"]]])
        XCTAssertEqual(try calls(named).first?.name, "get_time", named.jsonString)
        try calls(named).forEach(validate)

        let single = try ask(["tool_choice": "required", "parallel_tool_calls": false])
        XCTAssertEqual(try calls(single).count, 1, single.jsonString)

        // The client's max_tokens cutting a call's JSON: OpenAI's "length", no calls, not an error.
        let cut = try ask(["tool_choice": "required", "max_tokens": 3])
        XCTAssertEqual(cut["finish_reason"]?.stringValue, "length", cut.jsonString)
        XCTAssertTrue(try calls(cut).isEmpty, cut.jsonString)
        // ... and cutting free text: the text so far, "length".
        let (status, text) = try serve.post("/chat/completions", [
            "model": "local", "messages": [["role": "user", "content": "Tell me a long story about the sea."]], "max_tokens": 4, "temperature": 0,
        ], timeout: 120)
        XCTAssertEqual(status, 200, text.jsonString)
        XCTAssertEqual(text["choices"]?.arrayValue?.first?["finish_reason"]?.stringValue, "length", text.jsonString)
        XCTAssertFalse(text["choices"]?.arrayValue?.first?["message"]?["content"]?.stringValue?.isEmpty ?? true, text.jsonString)
        XCTAssertEqual(text["usage"]?["completion_tokens"]?.intValue, 4, text.jsonString)
        // The Responses API says the same as "incomplete".
        let (_, response) = try serve.post("/responses", [
            "model": "local", "input": "Tell me a long story about the sea.", "max_output_tokens": 4, "temperature": 0,
        ], timeout: 120)
        XCTAssertEqual(response["status"]?.stringValue, "incomplete", response.jsonString)
        XCTAssertEqual(response["incomplete_details"]?["reason"]?.stringValue, "max_output_tokens", response.jsonString)
    }
}
