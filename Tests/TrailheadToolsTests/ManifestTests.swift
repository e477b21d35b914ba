import Testing
import TrailheadSchema
@testable import TrailheadTools

@Suite struct ManifestTests {
    private func error(_ json: GeneratedContent) -> ManifestError? {
        do {
            _ = try Manifest(json: json)
            return nil
        } catch { return error }
    }

    @Test func readsAFullManifest() throws {
        let parsed = try Manifest(json: [
            "manifestVersion": 1, "plugin": "trip", "version": "1.0.0", "library": "libtrip.so",
            "sha256": .string(String(repeating: "AB", count: 32)), "isolation": "inProcess", "timeoutMs": 250,
            "config": ["x": 1], "permissions": ["network": false],
            "tools": [nativeTool("cost", symbol: "trip_cost_usd", parameters: [("distanceKm", "double"), ("travellers", "int32")], returns: "double")],
        ])
        #expect(parsed.sha256 == String(repeating: "ab", count: 32))
        #expect(parsed.isolation == .inProcess)
        #expect(parsed.timeoutMs == 250)
        #expect(parsed.isNativeOnly)
        guard case .native(let signature) = parsed.tools[0].binding else { Issue.record("not native"); return }
        #expect(signature.parameters == [.init(argument: "distanceKm", type: .double), .init(argument: "travellers", type: .int32)])
        #expect(signature.returns == .double)
        #expect(try Manifest(json: parsed.json) == parsed)
    }

    @Test func defaultsIsolationTimeoutAndBinding() throws {
        let parsed = try Manifest(json: manifest(plugin: "p", library: "libp.so", tools: [jsonTool("t")]).removing("isolation", "timeoutMs"))
        #expect(parsed.isolation == .process)
        #expect(parsed.timeoutMs == Manifest.defaultTimeoutMs)
        #expect(parsed.tools[0].binding == .json)
    }

    @Test func errorsNameTheFieldPointer() {
        let base = manifest(plugin: "p", library: "libp.so", tools: [jsonTool("t")])
        #expect(error(base.removing("plugin"))?.description == "/plugin: missing required member 'plugin'")
        #expect(error(base.setting("manifestVersion", 2))?.pointer == "/manifestVersion")
        #expect(error(base.setting("isolation", "thread"))?.description == "/isolation: expected one of process, inProcess, got \"thread\"")
        #expect(error(base.setting("timeoutMS", 5))?.pointer == "/timeoutMS")
        #expect(error(base.setting("sha256", "xyz"))?.pointer == "/sha256")
        #expect(error(base.setting("tools", [jsonTool("bad name!")]))?.description == "/tools/0/name: tool name 'bad name!' must match [A-Za-z0-9_.-]{1,64}")
        #expect(error(base.setting("tools", [jsonTool(.string(String(repeating: "a", count: 65)))]))?.pointer == "/tools/0/name")
        #expect(error(base.setting("tools", [jsonTool("t"), jsonTool("t")]))?.description == "/tools/1/name: tool 't' is listed twice")
        #expect(error(base.setting("tools", [jsonTool("t", arguments: ["type": "string"])]))?.pointer == "/tools/0/arguments")
    }

    @Test func aNativeParameterNeedsARequiredArgument() {
        var tool = nativeTool("cost", symbol: "f", parameters: [("distanceKm", "double")], returns: "double").objectValue!
        tool["arguments"] = ["type": "object", "properties": ["distance": ["type": "number"]], "required": ["distance"]]
        let missing = error(manifest(plugin: "p", library: "l.so", tools: [.object(tool)]))
        #expect(missing?.pointer == "/tools/0/binding/parameters/0/argument")
        #expect(missing?.message.contains("'distanceKm' has no matching argument") == true)

        tool["arguments"] = ["type": "object", "properties": ["distanceKm": ["type": "number"]]]
        #expect(error(manifest(plugin: "p", library: "l.so", tools: [.object(tool)]))?.message.contains("\"required\"") == true)
    }

    @Test func nativeTypesAreChecked() {
        let bad = nativeTool("x", symbol: "f", parameters: [("a", "int")], returns: "double")
        #expect(error(manifest(plugin: "p", library: "l.so", tools: [bad]))?.pointer == "/tools/0/binding/parameters/0/type")
        let freeWithoutString = nativeTool("x", symbol: "f", parameters: [], returns: "double", free: "release")
        #expect(error(manifest(plugin: "p", library: "l.so", tools: [freeWithoutString]))?.pointer == "/tools/0/binding/free")
    }

    @Test func notJSONIsAClearError() {
        #expect(throws: ManifestError.self) { try Manifest(jsonText: "{\"plugin\": ") }
    }

    @Test func anUnsupportedSchemaKeywordIsRefusedWithItsPointer() {
        let tool = jsonTool("t", arguments: ["type": "object", "properties": ["a": ["type": "string", "patternProperties": [:]]]])
        let refused = error(manifest(plugin: "p", library: "l.so", tools: [tool]))
        #expect(refused != nil, "GenerationSchema accepted 'patternProperties' (is TrailheadSchema still the contract stub?)")
        #expect(refused?.pointer.hasPrefix("/tools/0/arguments/properties/a") == true)
        #expect(refused?.message.contains("patternProperties") == true)
    }

    @Test func anMCPServerManifestKeepsItsGoodToolsAndListsTheRefusedOnes() throws {
        let unsupported = jsonTool("tagged", arguments: ["type": "object", "properties": ["tags": ["type": "object", "propertyNames": ["pattern": "^[a-z]+$"]]]])
        let tooLong = jsonTool(.string(String(repeating: "x", count: 70)))
        let document: GeneratedContent = [
            "manifestVersion": 1, "plugin": "weather", "version": "2.0",
            "server": ["command": ["python3", "weather.py"], "env": ["UNITS": "metric"], "cwd": "/srv/weather", "prefix": "wx_"],
            "sha256": .string(String(repeating: "ab", count: 32)), "timeoutMs": 800,
            "tools": [jsonTool("forecast"), unsupported, tooLong],
        ]
        let parsed = try Manifest(json: document)
        #expect(parsed.library == nil)
        #expect(parsed.server?.transport == .stdio(command: ["python3", "weather.py"], environment: ["UNITS": "metric"], directory: "/srv/weather"))
        #expect(parsed.registeredName(of: "forecast") == "wx_forecast")
        #expect(parsed.tools.map(\.name) == ["forecast"])
        #expect(parsed.refusedTools.map(\.name) == ["tagged", String(repeating: "x", count: 70)])
        #expect(parsed.refusedTools[0].reason.contains("/tools/1/arguments/properties/tags") && parsed.refusedTools[0].reason.contains("'propertyNames'"))
        #expect(parsed.refusedTools[1].reason.contains("must match [A-Za-z0-9_.-]{1,64}"))
        // Written back, the refused tools are kept as they were.
        #expect(try Manifest(json: parsed.json) == parsed)
    }

    @Test func anMCPServerManifestIsCheckedLikeAnyOther() {
        let base: GeneratedContent = ["manifestVersion": 1, "plugin": "p", "version": "1", "server": ["url": "http://127.0.0.1:8000/mcp"], "tools": []]
        #expect(error(base)?.description == nil)
        #expect(error(base.setting("library", "libp.so"))?.message.contains("either a \"library\" or a \"server\"") == true)
        #expect(error(base.setting("server", ["command": []]))?.pointer == "/server/command")
        #expect(error(base.setting("server", ["command": ["x"], "url": "http://h/mcp"]))?.message.contains("exactly one of") == true)
        #expect(error(base.setting("server", ["url": "https://example.com/mcp"]))?.description == nil)
        #expect(error(base.setting("server", ["url": "ftp://example.com/mcp"]))?.description == "/server/url: only http:// and https:// URLs are supported, got 'ftp://example.com/mcp'")
        #expect(error(base.setting("server", ["url": "http://h/mcp", "env": ["A": "b"]]))?.pointer == "/server")
        #expect(error(base.setting("server", ["command": ["x"], "prefix": "bad prefix"]))?.pointer == "/server/prefix")
        #expect(error(base.setting("isolation", "inProcess"))?.pointer == "/isolation")
        #expect(error(base.setting("config", ["a": 1]))?.pointer == "/config")
    }

    @Test func toolNamePattern() {
        #expect(ToolManifest.isValidName("calendar.freeDays-2_x"))
        #expect(!ToolManifest.isValidName(""))
        #expect(!ToolManifest.isValidName("a b"))
        #expect(!ToolManifest.isValidName("é"))
    }
}

extension GeneratedContent {
    func removing(_ keys: String...) -> GeneratedContent {
        guard case .object(var members) = self else { return self }
        for key in keys { members[key] = nil }
        return .object(members)
    }

    func setting(_ key: String, _ value: GeneratedContent) -> GeneratedContent {
        guard case .object(var members) = self else { return self }
        members[key] = value
        return .object(members)
    }
}
