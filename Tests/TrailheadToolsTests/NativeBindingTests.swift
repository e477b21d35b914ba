import Foundation
import Testing
import TrailheadSchema
import TrailheadTools

/// A plain C library (Tests/Fixtures/CPlugins/native_lib.c) called through libffi in process.
@Suite struct NativeBindingTests {
    private static let shared = Result { () throws -> (TestInstallation, ToolRegistry) in
        let i = try TestInstallation()
        try i.compile("native_lib.c", to: "libtripmath.so")
        try i.writeManifest("tripmath.json", manifest(plugin: "tripmath", library: "libtripmath.so", sha256: try i.sha256("libtripmath.so"), isolation: "inProcess", tools: [
            nativeTool("tripCost", symbol: "trip_cost_usd", parameters: [("distanceKm", "double"), ("travellers", "int32")], returns: "double"),
            nativeTool("greet", symbol: "greeting", parameters: [("name", "string"), ("times", "int32")], returns: "string", free: "greeting_free"),
            nativeTool("version", symbol: "library_version", parameters: [], returns: "string"),
            nativeTool("isEven", symbol: "is_even", parameters: [("n", "int64")], returns: "bool"),
            nativeTool("popcount", symbol: "popcount32", parameters: [("x", "uint32")], returns: "uint32"),
            nativeTool("half", symbol: "half", parameters: [("x", "float")], returns: "float"),
            nativeTool("add64", symbol: "add64", parameters: [("a", "int64"), ("b", "int64")], returns: "int64"),
            nativeTool("shifted", symbol: "shifted", parameters: [("x", "uint64"), ("bits", "uint32")], returns: "uint64"),
            nativeTool("negate", symbol: "negate", parameters: [("x", "int32")], returns: "int32"),
            nativeTool("both", symbol: "both", parameters: [("a", "bool"), ("b", "bool")], returns: "bool"),
            nativeTool("bump", symbol: "bump", parameters: [], returns: "void"),
            nativeTool("bumps", symbol: "bumps", parameters: [], returns: "int32"),
        ]))
        let registry = try i.registry()
        return (i, registry)
    }

    let registry: ToolRegistry
    init() throws { registry = try Self.shared.get().1 }

    @Test func theLibraryNeedsNoTrailheadSymbol() {
        #expect(registry.plugins.first?.status == .ok, "\(registry.plugins.first?.status.description ?? "")")
    }

    @Test func numbersGoInAndComeOutAsTheirCTypes() throws {
        #expect(try registry.call("tripCost", arguments: ["distanceKm": 100, "travellers": 2]) == ["result": 54])
        #expect(try registry.call("isEven", arguments: ["n": 4_000_000_000_000]) == ["result": true])
        #expect(try registry.call("isEven", arguments: ["n": -7]) == ["result": false])
        #expect(try registry.call("popcount", arguments: ["x": 4_294_967_295]) == ["result": 32])
        #expect(try registry.call("half", arguments: ["x": 3]) == ["result": 1.5])
        #expect(try registry.call("add64", arguments: ["a": 1_099_511_627_776, "b": -5]) == ["result": 1_099_511_627_771])
        #expect(try registry.call("shifted", arguments: ["x": 1, "bits": 40]) == ["result": 1_099_511_627_776])
        #expect(try registry.call("negate", arguments: ["x": 5]) == ["result": -5])
        #expect(try registry.call("negate", arguments: ["x": -2_147_483_647]) == ["result": 2_147_483_647])
        #expect(try registry.call("both", arguments: ["a": true, "b": true]) == ["result": true])
        #expect(try registry.call("both", arguments: ["a": true, "b": false]) == ["result": false])
    }

    @Test func stringsAreCopiedAndFreedWithTheLibrarysFunction() throws {
        #expect(try registry.call("greet", arguments: ["name": "Zoë", "times": 3]) == ["result": "hello, Zoë x3"])
        #expect(try registry.call("version", arguments: [:]) == ["result": "tripmath 1.2"])
    }

    @Test func voidReturnsNull() throws {
        let before = try registry.call("bumps", arguments: [:])["result"]?.intValue ?? -1
        #expect(try registry.call("bump", arguments: [:]) == ["result": nil])
        #expect(try registry.call("bumps", arguments: [:]) == ["result": .number(Double(before + 1))])
    }

    @Test func valuesThatDoNotFitTheirCTypeAreToolErrors() {
        #expect(throws: ToolCallError.failed(tool: "negate", message: "argument 'x': 2147483648 is not an int32")) {
            try registry.call("negate", arguments: ["x": 2_147_483_648])
        }
        #expect(throws: ToolCallError.failed(tool: "popcount", message: "argument 'x': -1 is not a uint32")) {
            try registry.call("popcount", arguments: ["x": -1])
        }
    }
}
