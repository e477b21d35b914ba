import TrailheadSupport
import Foundation
import Testing
import TrailheadSchema
import TrailheadTestSupport
import TrailheadTools

/// The C plugins' sources and the header they compile against.
enum CPluginSources {
    static let folder = Checkout.path("Tests/Fixtures/CPlugins")
    static let headerFolder = Checkout.path("Sources/CTrailheadTool/include")
}

/// A throwaway installation folder: `Plugins/`, `Manifests/`, libraries compiled or copied in.
final class TestInstallation: @unchecked Sendable {
    let root: String
    var plugins: String { root + "/Plugins" }
    var manifests: String { root + "/Manifests" }

    init() throws {
        root = try Scratch.newFolder("installation")
        for folder in [root + "/Plugins", root + "/Manifests"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// Compiles one of `Tests/Fixtures/CPlugins` with gcc into `Plugins/<library>`.
    @discardableResult
    func compile(_ source: String, to library: String, flags: [String] = []) throws -> String {
        let output = plugins + "/" + library
        try run("/usr/bin/gcc", ["-shared", "-fPIC", "-O1", "-I", CPluginSources.headerFolder] + flags + ["-o", output, CPluginSources.folder + "/" + source])
        return output
    }

    /// Copies a built product (`libFixtureTool.so`) into `Plugins/`.
    @discardableResult
    func install(product: String, as name: String? = nil) throws -> String {
        let destination = plugins + "/" + (name ?? product)
        try? FileManager.default.removeItem(atPath: destination)
        try FileManager.default.copyItem(atPath: try BuildProducts.path(product), toPath: destination)
        return destination
    }

    func writeManifest(_ file: String, _ manifest: GeneratedContent) throws {
        try manifest.prettyJSONString.write(toFile: manifests + "/" + file, atomically: true, encoding: .utf8)
    }

    func writeManifest(_ file: String, text: String) throws {
        try text.write(toFile: manifests + "/" + file, atomically: true, encoding: .utf8)
    }

    func sha256(_ library: String) throws -> String { try SHA256.hex(ofFileAt: plugins + "/" + library) }

    /// Writes a scripted model's outputs (one JSON string per line) and returns the file's path.
    func script(_ outputs: [String]) throws -> String {
        let path = root + "/script-\(UUID().uuidString).jsonl"
        try outputs.map { GeneratedContent.string($0).jsonString }.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `agent plan …` on this installation's plugins with a scripted model, writing `transcript`.
    func planArguments(tools: String, script: String, transcript: String) -> [String] {
        ["plan", "Joshua Tree National Park", "--days", "2", "--tools", tools, "--from", "2026-12-01", "--to", "2026-12-31",
         "--model", "scripted:\(script)", "--transcript", transcript, "--format", "json", "--plugins", plugins, "--manifests", manifests]
    }

    /// The environment the built `agent` runs in here.
    var agentEnvironment: [String: String] {
        ChildProcess.Options.environment(adding: AgentProcess.quiet.merging(["TRAILHEAD_HOME": root]) { $1 })
    }

    func registry(crashLimit: Int = 3) throws -> ToolRegistry {
        ToolRegistry(.init(pluginsFolder: plugins, manifestsFolder: manifests, toolHost: try BuildProducts.path("agent-tool-host"), crashLimit: crashLimit))
    }
}

/// Runs a program and fails with its stderr when it fails.
@discardableResult
func run(_ executable: String, _ arguments: [String]) throws -> String {
    let completed = try ChildProcess.run(executable, arguments)
    guard completed.status == 0 else {
        throw TestSetupError("\(executable) \(arguments.joined(separator: " ")) \(completed.termination): \(completed.stderr)")
    }
    return completed.stdout
}

// MARK: - Manifest builders

/// A manifest document with the usual defaults.
func manifest(
    plugin: String, library: String, sha256: String? = nil, isolation: String = "process", timeoutMs: Int = 2000,
    tools: [GeneratedContent]
) -> GeneratedContent {
    var root: JSONObject = ["manifestVersion": 1, "plugin": .string(plugin), "version": "1.0.0", "library": .string(library)]
    if let sha256 { root["sha256"] = .string(sha256) }
    root["isolation"] = .string(isolation)
    root["timeoutMs"] = .number(Double(timeoutMs))
    root["tools"] = .array(tools)
    return .object(root)
}

/// A JSON-bound tool taking any object.
func jsonTool(_ name: GeneratedContent, arguments: GeneratedContent = ["type": "object"], output: GeneratedContent? = nil) -> GeneratedContent {
    var tool: JSONObject = ["name": name, "description": .string("the \(name.stringValue ?? "") tool"), "arguments": arguments]
    if let output { tool["output"] = output }
    return .object(tool)
}

/// A native-bound tool; `parameters` are (argument, C type) pairs and each becomes a required property.
func nativeTool(_ name: String, symbol: String, parameters: [(String, String)], returns: String, free: String? = nil) -> GeneratedContent {
    var properties: JSONObject = [:]
    for (argument, type) in parameters {
        properties[argument] =
            switch type {
            case "string": ["type": "string"]
            case "bool": ["type": "boolean"]
            case "float", "double": ["type": "number"]
            default: ["type": "integer"]
            }
    }
    var binding: JSONObject = [
        "kind": "native", "symbol": .string(symbol),
        "parameters": .array(parameters.map { ["argument": .string($0.0), "type": .string($0.1)] }),
        "returns": .string(returns),
    ]
    if let free { binding["free"] = .string(free) }
    return [
        "name": .string(name), "description": .string("calls \(symbol)"),
        "arguments": ["type": "object", "properties": .object(properties), "required": .array(parameters.map { .string($0.0) })],
        "binding": .object(binding),
    ]
}

/// The tools of the plain C plugin that are safe to call in process.
let cPlainTools = ["c_echo", "c_fail", "c_not_json", "c_huge"].map { jsonTool(.string($0)) }
/// The FixtureTool plugin's tools.
let fixtureTools = ["echo", "crash", "hang", "garbage", "fail", "config"].map { jsonTool(.string($0)) }
