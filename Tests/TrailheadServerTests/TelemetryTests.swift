import Foundation
import TrailheadSchema
import TrailheadSupport
import TrailheadTestSupport
import XCTest

/// `agent serve`'s runs as OpenTelemetry traces (OTLP over HTTP), in a real receiver: Arize
/// Phoenix from PyPI, which stores them and shows them in its UI, started by the test.
final class TelemetryTests: XCTestCase {
    /// Each model turn takes the scripted "model" 300 ms: the spans' lengths show it.
    static let script = [
        ServeFixtures.call("2026-12-01", "2026-12-07", delayMs: 300), ServeFixtures.final("You are free on Sunday 6 December.", delayMs: 300),
    ].joined(separator: "\n")

    func testAResponseReachesPhoenixAsAnAgentSpanWithItsModelTurnsAndToolCallsUnderIt() async throws {
        let phoenix = try Phoenix()
        let folder = try Scratch.newFolder()
        try ServeFixtures.write(ServeFixtures.agents, to: folder + "/agents.json")
        try ServeFixtures.write(Self.script, to: folder + "/script.jsonl")
        let serve = try ServeProcess(
            ["--agents", folder + "/agents.json", "--model", "scripted:\(folder)/script.jsonl", "--store", folder + "/sessions"],
            environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": phoenix.endpoint, "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf", "OTEL_SERVICE_NAME": "trailhead-test"])
        let answer = try serve.post("/responses", ["model": "free-days", "input": "When am I free?"])
        XCTAssertEqual(answer.status, 200, "\(answer.body)")
        let session = try XCTUnwrap(answer.body["trailhead"]?["session"]?.stringValue)

        let spans = try await phoenix.spans(atLeast: 4)
        func named(_ prefix: String) -> [GeneratedContent] { spans.filter { $0["name"]?.stringValue?.hasPrefix(prefix) == true } }
        let agent = try XCTUnwrap(named("invoke_agent free-days").first, "\(spans)")
        XCTAssertEqual(agent["parent_id"], .null, "the response is the trace's root")
        XCTAssertEqual(agent["status_code"]?.stringValue, "OK")
        XCTAssertEqual(agent["attributes"]?["gen_ai.operation.name"]?.stringValue, "invoke_agent")
        XCTAssertEqual(agent["attributes"]?["gen_ai.agent.name"]?.stringValue, "free-days")
        XCTAssertEqual(agent["attributes"]?["gen_ai.conversation.id"]?.stringValue, session)
        XCTAssertEqual(agent["attributes"]?["trailhead.turns"]?.intValue, 2)
        let trace = try XCTUnwrap(agent["context"]?["trace_id"]?.stringValue)
        let root = try XCTUnwrap(agent["context"]?["span_id"]?.stringValue)

        let chats = named("chat ")
        XCTAssertEqual(chats.count, 2, "a span per model turn: \(spans)")
        let tools = named("execute_tool calendarFreeDays")
        XCTAssertEqual(tools.count, 1, "\(spans)")
        for span in chats + tools {
            XCTAssertEqual(span["context"]?["trace_id"]?.stringValue, trace)
            XCTAssertEqual(span["parent_id"]?.stringValue, root, "under the response: \(span)")
            XCTAssertEqual(span["status_code"]?.stringValue, "OK")
            XCTAssertGreaterThanOrEqual(try Self.seconds(span["start_time"]), try Self.seconds(agent["start_time"]) - 0.001)
            XCTAssertLessThanOrEqual(try Self.seconds(span["end_time"]), try Self.seconds(agent["end_time"]) + 0.001)
        }
        for chat in chats {
            XCTAssertEqual(chat["span_kind"]?.stringValue, "LLM", "Phoenix reads the GenAI attributes: \(chat)")
            XCTAssertEqual(chat["attributes"]?["gen_ai.operation.name"]?.stringValue, "chat")
            XCTAssertEqual(chat["attributes"]?["gen_ai.request.model"]?.stringValue, "scripted:\(folder)/script.jsonl")
            XCTAssertGreaterThanOrEqual(try Self.seconds(chat["end_time"]) - Self.seconds(chat["start_time"]), 0.29, "the turn's 300 ms: \(chat)")
        }
        XCTAssertEqual(tools.first?["span_kind"]?.stringValue, "TOOL")
        XCTAssertEqual(tools.first?["attributes"]?["gen_ai.tool.name"]?.stringValue, "calendarFreeDays")
        XCTAssertNotNil(tools.first?["attributes"]?["gen_ai.tool.call.id"]?.stringValue)
    }

    func testOTLPJSONDecodesWithTheOfficialClassesAndCarriesTheResource() async throws {
        let receiver = try OTLPDecodingReceiver()
        let folder = try Scratch.newFolder()
        try ServeFixtures.write(ServeFixtures.agents, to: folder + "/agents.json")
        try ServeFixtures.write(Self.script, to: folder + "/script.jsonl")
        let serve = try ServeProcess(
            ["--agents", folder + "/agents.json", "--model", "scripted:\(folder)/script.jsonl", "--store", folder + "/sessions"],
            environment: [
                "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.endpoint, "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
                "OTEL_RESOURCE_ATTRIBUTES": "deployment.environment=test,service.namespace=trips",
            ])
        XCTAssertEqual(try serve.post("/responses", ["model": "free-days", "input": "When am I free?"]).status, 200)
        try await waitUntil("the spans were exported") {
            receiver.exports.flatMap { Self.spans(of: $0) }.count >= 4
        }
        let export = try XCTUnwrap(receiver.exports.first)
        XCTAssertEqual(export["contentType"]?.stringValue, "application/json")
        let resource = Dictionary(uniqueKeysWithValues: (export["request"]?["resourceSpans"]?.arrayValue?.first?["resource"]?["attributes"]?.arrayValue ?? []).map {
            ($0["key"]?.stringValue ?? "", $0["value"]?["stringValue"]?.stringValue ?? "")
        })
        XCTAssertEqual(resource["service.name"], "trailhead")
        XCTAssertEqual(resource["deployment.environment"], "test")
        XCTAssertEqual(resource["service.namespace"], "trips")
        XCTAssertEqual(resource["service.instance.id"]?.hasSuffix(":\(serve.process.pid)"), true, "the replica: \(resource)")
        let spans = receiver.exports.flatMap { Self.spans(of: $0) }
        let agent = try XCTUnwrap(spans.first { $0["name"]?.stringValue == "invoke_agent free-days" })
        let tokens = spans.first { $0["name"]?.stringValue?.hasPrefix("chat ") == true }?["attributes"]?.arrayValue?.map { $0["key"]?.stringValue ?? "" } ?? []
        XCTAssertTrue(tokens.contains("gen_ai.response.finish_reasons"), "\(tokens)")
        XCTAssertEqual(spans.filter { $0["parentSpanId"]?.stringValue == agent["spanId"]?.stringValue }.count, 3, "two turns and a call under the response")
    }

    static func spans(of export: GeneratedContent) -> [GeneratedContent] {
        (export["request"]?["resourceSpans"]?.arrayValue ?? []).flatMap { ($0["scopeSpans"]?.arrayValue ?? []).flatMap { $0["spans"]?.arrayValue ?? [] } }
    }

    /// Seconds since 1970 of Phoenix's ISO 8601 times ("2026-12-04T10:18:48.932294+00:00").
    static func seconds(_ value: GeneratedContent?) throws -> Double {
        let text = try XCTUnwrap(value?.stringValue)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let whole = text.replacingOccurrences(of: #"\.(\d{3})\d*"#, with: ".$1", options: .regularExpression)
        let date = try XCTUnwrap(formatter.date(from: whole) ?? ISO8601DateFormatter().date(from: text), text)
        return date.timeIntervalSince1970
    }
}
