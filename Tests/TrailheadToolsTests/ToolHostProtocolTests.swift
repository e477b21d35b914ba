import Foundation
import Testing
import TrailheadSchema
import TrailheadSupport
import TrailheadTestSupport

/// `agent-tool-host` speaks newline-delimited JSON-RPC 2.0 in MCP's shape: checked line by line.
@Suite struct ToolHostProtocolTests {
    /// Feeds `requests` (one per line) to a worker serving the FixtureTool plugin; returns its reply lines.
    private func exchange(_ requests: [String], library: String? = nil) throws -> (replies: [GeneratedContent], stderr: String) {
        let installation = try TestInstallation()
        let path = try library ?? installation.install(product: "libFixtureTool.so")
        let completed = try ChildProcess.run(
            try BuildProducts.path("agent-tool-host"), [path], input: Array((requests.joined(separator: "\n") + "\n").utf8),
            options: .init(environment: ChildProcess.Options.environment(adding: ["SWIFT_BACKTRACE": "enable=no"])))
        let replies = try completed.stdout.split(separator: "\n").map { try GeneratedContent(json: String($0)) }
        return (replies, completed.stderr)
    }

    @Test func initializeListCallAndErrors() throws {
        let (replies, stderr) = try exchange([
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
            #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"a":[1,"x"]}}}"#,
            #"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"fail","arguments":{}}}"#,
            #"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"garbage","arguments":{}}}"#,
            #"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"nope","arguments":{}}}"#,
            #"{"jsonrpc":"2.0","id":7,"method":"resources/list"}"#,
            "this is not json",
            #"{"jsonrpc":"2.0","id":8,"method":"ping"}"#,
        ])
        // The notification gets no reply; every request gets exactly one, in order.
        // (A parse error's reply carries "id": null.)
        #expect(replies.map { $0["id"] ?? "absent" } == [1, 2, 3, 4, 5, 6, 7, .null, 8])
        #expect(replies.allSatisfy { $0["jsonrpc"] == "2.0" })

        let initialize = replies[0]["result"]
        #expect(initialize?["protocolVersion"] == "2025-06-18")
        #expect(initialize?["serverInfo"]?["name"] == "fixture")
        #expect(initialize?["capabilities"]?["tools"] != nil)

        let tools = replies[1]["result"]?["tools"]?.arrayValue ?? []
        #expect(tools.compactMap { $0["name"]?.stringValue } == ["echo", "crash", "hang", "garbage", "fail", "config"])
        #expect(tools.first?["inputSchema"] == ["type": "object"])
        #expect(tools.first?["annotations"]?["readOnlyHint"] == true)

        #expect(replies[2]["result"] == [
            "content": [["type": "text", "text": #"{"a":[1,"x"]}"#]], "structuredContent": ["a": [1, "x"]], "isError": false,
        ])
        #expect(replies[3]["result"]?["isError"] == true)
        #expect(replies[3]["result"]?["content"]?[0]?["text"] == "this tool always fails")
        // What the plugin printed went to stderr, not into the protocol.
        #expect(replies[4]["result"]?["structuredContent"] == ["ok": true])
        #expect(stderr.contains("}{ not json"))
        #expect(replies[5]["error"]?["code"] == -32602)
        #expect(replies[6]["error"]?["code"] == -32601)
        #expect(replies[7]["error"]?["code"] == -32700)
        #expect(replies[8]["result"] == [:])
    }

    @Test func aLibraryThatCannotLoadAnswersInitializeWithTheReason() throws {
        let installation = try TestInstallation()
        let library = try installation.compile("wrong_abi.c", to: "libwrongabi.so")
        let (replies, stderr) = try exchange([#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#], library: library)
        #expect(replies.first?["error"]?["code"] == -32001)
        #expect(replies.first?["error"]?["message"]?.stringValue?.contains("ABI version 2") == true)
        #expect(stderr.contains("ABI version 2"))
    }
}

extension GeneratedContent {
    fileprivate subscript(index: Int) -> GeneratedContent? {
        guard case .array(let items) = self, items.indices.contains(index) else { return nil }
        return items[index]
    }
}
