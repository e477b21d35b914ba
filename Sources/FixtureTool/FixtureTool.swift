import Foundation
import TrailheadPluginKit
import TrailheadSchema

/// A plugin for tests and benchmarks: one tool that works and four that misbehave on purpose.
@_cdecl("trailhead_plugin_v1")
public func trailheadPluginV1() -> UnsafeRawPointer {
    Plugin(
        name: "fixture", version: "1.0.0",
        tools: [Echo(), Crash(), Hang(), Garbage(), Fail(), Config()],
        timeoutMs: 2000,
        open: { config in openedWith.set(config.content) }
    ).export()
}

/// The config the host opened the plugin with (including the `$home` it adds).
private let openedWith = Box()

private final class Box: @unchecked Sendable {
    private let lock = NSLock()
    private var value: GeneratedContent = .null
    func set(_ newValue: GeneratedContent) { lock.withLock { value = newValue } }
    func get() -> GeneratedContent { lock.withLock { value } }
}

/// Returns the config the plugin was opened with.
struct Config: Tool {
    let name = "config"
    let description = "Returns the config the plugin was opened with."
    func call(arguments: JSONObject) throws -> GeneratedContent { openedWith.get() }
}

/// Returns its arguments unchanged.
struct Echo: Tool {
    let name = "echo"
    let description = "Returns its arguments unchanged."
    func call(arguments: JSONObject) throws -> JSONObject { arguments }
}

/// Kills its process: a real segmentation fault, or `abort()`.
struct Crash: Tool {
    let name = "crash"
    let description = "Crashes the process that runs it (how: segfault or abort)."
    struct Arguments: Generable {
        var how: How?
        enum How: String, Codable, CaseIterable { case segfault, abort }
    }
    func call(arguments: Arguments) throws -> GeneratedContent {
        // Something on stderr first, which the host's crash report should quote.
        _ = "fixture: crashing on purpose\n".withCString { write(2, $0, strlen($0)) }
        if arguments.how == .abort { abort() }
        // A store through a pointer into the unmapped first page: SIGSEGV, not a Swift trap.
        let address = UnsafeMutablePointer<Int32>(bitPattern: 16)!
        address.pointee = 1
        return ["unreachable": true]
    }
}

/// Never returns.
struct Hang: Tool {
    let name = "hang"
    let description = "Sleeps forever."
    func call(arguments: JSONObject) throws -> GeneratedContent {
        while true { sleep(3600) }
    }
}

/// Writes junk to stdout (which must not reach the protocol), then answers normally.
struct Garbage: Tool {
    let name = "garbage"
    let description = "Prints junk on stdout, then returns {\"ok\": true}."
    func call(arguments: JSONObject) throws -> GeneratedContent {
        let junk = "}{ not json\n\u{0}\u{7}garbage without a newline"
        _ = junk.withCString { write(1, $0, strlen($0)) }
        print("more junk through Swift's print")
        fflush(nil)
        return ["ok": true]
    }
}

/// Reports a tool error.
struct Fail: Tool {
    let name = "fail"
    let description = "Always fails with a message."
    func call(arguments: JSONObject) throws -> GeneratedContent {
        throw ToolFailure("this tool always fails")
    }
}
