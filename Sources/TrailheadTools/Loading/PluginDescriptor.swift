import CTrailheadTool
import Foundation
import TrailheadSchema

/// The `trailhead_plugin` descriptor a library exports, checked and ready to call.
///
/// Not thread-safe on its own: the owner serialises calls, as trailhead_tool.h promises plugins.
struct PluginDescriptor: @unchecked Sendable {
    private let descriptor: UnsafePointer<trailhead_plugin>
    let library: SharedLibrary

    /// Looks up `trailhead_plugin_v1`, reads the ABI version before anything else (a descriptor
    /// of another version may have another layout) and checks the plugin's name when given.
    static func load(from library: SharedLibrary, expectedName: String?) throws(PluginLoadError) -> PluginDescriptor {
        guard let address = library.symbol(TRAILHEAD_PLUGIN_SYMBOL) else {
            throw PluginLoadError("\(library.fileName): no symbol '\(TRAILHEAD_PLUGIN_SYMBOL)' (is it a Trailhead plugin? a plain C library needs native bindings for all its tools)")
        }
        typealias Entry = @convention(c) () -> UnsafeRawPointer?
        let entry = unsafeBitCast(address, to: Entry.self)
        guard let raw = entry() else {
            throw PluginLoadError("\(library.fileName): \(TRAILHEAD_PLUGIN_SYMBOL)() returned NULL")
        }
        let abiVersion = raw.load(as: UInt32.self)
        guard abiVersion == TRAILHEAD_TOOL_ABI_VERSION else {
            throw PluginLoadError("\(library.fileName): plugin ABI version \(abiVersion), but this host supports ABI version \(TRAILHEAD_TOOL_ABI_VERSION)")
        }
        let descriptor = raw.assumingMemoryBound(to: trailhead_plugin.self)
        guard let namePointer = descriptor.pointee.name else {
            throw PluginLoadError("\(library.fileName): the descriptor has no name")
        }
        guard descriptor.pointee.call != nil, descriptor.pointee.free_result != nil else {
            throw PluginLoadError("\(library.fileName): the descriptor lacks 'call' or 'free_result'")
        }
        let name = String(cString: namePointer)
        if let expectedName, name != expectedName {
            throw PluginLoadError("\(library.fileName): the library's plugin name is '\(name)' but its manifest says '\(expectedName)'")
        }
        return PluginDescriptor(descriptor: descriptor, library: library)
    }

    var name: String { String(cString: descriptor.pointee.name) }
    var abiVersion: UInt32 { descriptor.pointee.abi_version }
    var embeddedManifest: String? { descriptor.pointee.manifest_json.map { String(cString: $0) } }

    /// Calls `open` (when the plugin has one) with the config document.
    func open(config: GeneratedContent) throws(PluginLoadError) {
        guard let open = descriptor.pointee.open else { return }
        var errorOut: UnsafeMutablePointer<CChar>?
        let status = open(config.jsonString, &errorOut)
        let message = take(errorOut)
        if status != 0 {
            throw PluginLoadError("plugin '\(name)' refused to open: \(message ?? "no reason given (status \(status))")")
        }
    }

    /// Calls one tool; returns the status and the text the plugin wrote (already freed on its side).
    func call(tool: String, argumentsJSON: String) -> (status: Int32, text: String?) {
        var resultOut: UnsafeMutablePointer<CChar>?
        let status = descriptor.pointee.call(tool, argumentsJSON, &resultOut)
        return (status, take(resultOut))
    }

    func close() { descriptor.pointee.close?() }

    /// Copies a plugin-allocated string and releases it with the plugin's own `free_result`.
    private func take(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        defer { descriptor.pointee.free_result(pointer) }
        return String(cString: pointer)
    }
}
