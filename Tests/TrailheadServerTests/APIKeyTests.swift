import Foundation
import TrailheadSchema
import TrailheadSupport
import TrailheadTestSupport
import XCTest

/// `agent serve` off loopback: no key, no server; with a key, no request without it.
final class APIKeyTests: XCTestCase {
    func testAServerOnANonLoopbackAddressNeedsAKeyAndRefusesRequestsWithoutIt() throws {
        let folder = try Scratch.newFolder()
        try ServeFixtures.write(ServeFixtures.agents, to: folder + "/agents.json")
        try ServeFixtures.write([ServeFixtures.final("Free on Sunday.")].joined(separator: "\n"), to: folder + "/script.jsonl")
        let common = ["--agents", folder + "/agents.json", "--model", "scripted:\(folder)/script.jsonl", "--store", folder + "/sessions"]

        // Given every interface and no key, it refuses to start, and says why.
        let refused = try ChildProcess.run(
            try BuildProducts.path("agent"), ["serve", "--host", "0.0.0.0", "--port", "0"] + common,
            options: .init(environment: ChildProcess.Options.environment(adding: ["TRAILHEAD_API_KEY": nil])), timeLimit: 30)
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.stderr.contains("needs an API key"), refused.stderr)

        // With a key it listens on every interface, and every request must carry the key.
        let key = "test-key-\(UUID().uuidString)"
        let serve = try ServeProcess(["--host", "0.0.0.0"] + common, environment: ["TRAILHEAD_API_KEY": key])
        XCTAssertFalse(serve.output.contains(key), "the key is never logged")
        let request: GeneratedContent = ["model": "free-days", "messages": [["role": "user", "content": "When am I free?"]]]
        let anonymous = try serve.post("/chat/completions", request)
        XCTAssertEqual(anonymous.status, 401)
        XCTAssertEqual(anonymous.body["error"]?["code"]?.stringValue, "invalid_api_key")
        XCTAssertEqual(try serve.post("/chat/completions", request, headers: ["Authorization": "Bearer wrong"]).status, 401)
        let allowed = try serve.post("/chat/completions", request, headers: ["Authorization": "Bearer \(key)"])
        XCTAssertEqual(allowed.status, 200, "\(allowed.body)")
        XCTAssertEqual(allowed.body["choices"]?.arrayValue?.first?["message"]?["content"]?.stringValue, "Free on Sunday.")
    }
}
