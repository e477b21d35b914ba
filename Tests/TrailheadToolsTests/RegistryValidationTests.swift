import Foundation
import Testing
import TrailheadSchema
import TrailheadTools

/// Arguments are validated before every call and results against `output` after a success, in
/// process and through the worker alike. (These need TrailheadSchema's real validator, not the
/// contract stub that accepts everything.)
@Suite struct RegistryValidationTests {
    private static let shared = Result { () throws -> (TestInstallation, ToolRegistry) in
        let i = try TestInstallation()
        try i.install(product: "libFixtureTool.so")
        let strict: GeneratedContent = ["type": "object", "properties": ["n": ["type": "integer", "minimum": 1]], "required": ["n"], "additionalProperties": false]
        try i.writeManifest("fixture.json", manifest(plugin: "fixture", library: "libFixtureTool.so", tools: [
            jsonTool("echo", arguments: strict, output: ["type": "object", "properties": ["n": ["maximum": 10]]]),
        ]))
        try i.compile("plain_plugin.c", to: "libcplain.so")
        try i.writeManifest("cplain.json", manifest(plugin: "cplain", library: "libcplain.so", isolation: "inProcess", tools: [
            jsonTool("c_echo", arguments: strict, output: ["type": "object", "required": ["n"]]),
        ]))
        return (i, try i.registry())
    }

    let registry: ToolRegistry
    init() throws { registry = try Self.shared.get().1 }

    @Test(arguments: ["echo", "c_echo"])
    func invalidArgumentsAreRefusedBeforeTheCallWithEveryViolation(tool: String) throws {
        let outcome = registry.result(of: tool, arguments: ["n": 0, "extra": true])
        guard case .failure(.invalidArguments(let name, let violations)) = outcome else {
            Issue.record("expected invalidArguments, got \(outcome)")
            return
        }
        #expect(name == tool)
        #expect(violations.count == 2, "\(violations)")
        #expect(violations.contains { $0.instancePointer == "/n" }, "\(violations)")
        #expect(violations.contains { $0.message.contains("extra") }, "\(violations)")
        #expect(ToolCallError.invalidArguments(tool: name, violations: violations).content["violations"]?.arrayValue?.count == 2)
    }

    @Test func resultsAreCheckedAgainstTheOutputSchema() throws {
        #expect(try registry.call("echo", arguments: ["n": 5]) == ["n": 5])
        let message = registry.result(of: "echo", arguments: ["n": 11]).errorDescription ?? ""
        #expect(message.contains("does not match its output schema"), "\(message)")
        #expect(message.contains("/n"), "\(message)")
        #expect(try registry.call("c_echo", arguments: ["n": 11]) == ["n": 11])
    }
}
