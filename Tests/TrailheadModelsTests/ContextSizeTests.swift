import Foundation
import TrailheadSchema
import TrailheadTestSupport
import XCTest

@testable import TrailheadModels

/// An OpenAI-compatible server that says its context (llama.cpp's `/props`) gets requests that
/// do not fit refused before they are sent.
final class ContextSizeTests: XCTestCase {
    /// A llama.cpp-like server with 128 tokens per slot, whose template and tokenizer count one
    /// token per word.
    private func server() throws -> FakeHTTPServer {
        try FakeHTTPServer { _, request in
            let json = FakeHTTPServer.head(type: "application/json")
            switch request.path {
            case "/props": return [.send(json + #"{"default_generation_settings":{"n_ctx":128},"total_slots":1}"#)]
            case "/apply-template":
                let messages = (try? GeneratedContent(json: request.body))?["messages"]?.arrayValue ?? []
                let prompt = messages.compactMap { $0["content"]?.stringValue }.joined(separator: " ")
                return [.send(json + GeneratedContent.object(["prompt": .string(prompt)]).jsonString)]
            case "/tokenize":
                let words = ((try? GeneratedContent(json: request.body))?["content"]?.stringValue ?? "").split(separator: " ")
                return [.send(json + GeneratedContent.object(["tokens": .array(words.indices.map { .number(Double($0)) })]).jsonString)]
            case "/v1/chat/completions": return FakeHTTPServer.stream(["Fine."])
            default: return [.send(FakeHTTPServer.head(status: 404, type: "application/json") + #"{"error":"not found"}"#)]
            }
        }
    }

    func testTheServersContextIsReadFromPropsAndAnOverLongRequestIsNeverSent() async throws {
        let server = try server()
        defer { server.stop() }
        let model = OpenAICompatibleModel(
            configuration: .init(endpoint: try ModelEndpoint(parsing: server.baseURL + "#m"), retry: RetryPolicy(maximumRetries: 0)))
        let contextSize = await model.contextSize
        XCTAssertEqual(contextSize, 128)

        let long = ModelRequest(messages: [.user(String(repeating: "word ", count: 200))])
        do {
            _ = try await model.respond(to: long)
            XCTFail("the request should not fit")
        } catch LanguageModelError.contextSizeExceeded(let info) {
            XCTAssertEqual(info.tokenCount, 200)
            XCTAssertEqual(info.contextSize, 128)
        }
        XCTAssertFalse(server.requests.contains { $0.path == "/v1/chat/completions" }, "nothing was sent")

        // A short request is sent without counting (the byte bound says it fits).
        let short = try await model.respond(to: ModelRequest(messages: [.user("Hello")]))
        XCTAssertEqual(short.text, "Fine.")
        XCTAssertEqual(server.requests.filter { $0.path == "/tokenize" }.count, 1)
    }

    func testAServerThatDoesNotSayHasNoContextSize() async throws {
        let server = try FakeHTTPServer { _, _ in [.send(FakeHTTPServer.head(status: 404, type: "application/json") + "{}")] }
        defer { server.stop() }
        let model = OpenAICompatibleModel(
            configuration: .init(endpoint: try ModelEndpoint(parsing: server.baseURL + "#m"), retry: RetryPolicy(maximumRetries: 0)))
        let contextSize = await model.contextSize
        XCTAssertNil(contextSize)
    }
}
