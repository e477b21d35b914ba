import CTrailheadTool
import Foundation
import Synchronization
import TrailheadSchema

extension Plugin {
    /// Builds the C descriptor for this plugin once and returns it; later calls return the same
    /// descriptor (a plugin image exports exactly one plugin).
    public func export() -> UnsafeRawPointer {
        exported.withLock { state in
            if let descriptor = state.descriptor { return UnsafeRawPointer(descriptor) }
            state.plugin = self
            state.toolsByName = Dictionary(tools.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            let descriptor = UnsafeMutablePointer<trailhead_plugin>.allocate(capacity: 1)
            descriptor.initialize(to: trailhead_plugin(
                abi_version: TRAILHEAD_TOOL_ABI_VERSION,
                name: UnsafePointer(strdup(name)),
                manifest_json: UnsafePointer(strdup(manifest.jsonString)),
                open: exportedOpen,
                call: exportedCall,
                free_result: { pointer in free(pointer) },
                close: { exported.withLock { $0.plugin }?.close() }
            ))
            state.descriptor = descriptor
            return UnsafeRawPointer(descriptor)
        }
    }
}

/// The one plugin of this image, reached from the C entry points (which cannot capture).
private struct ExportedState: @unchecked Sendable {
    var plugin: Plugin?
    var toolsByName: [String: any Tool] = [:]
    var descriptor: UnsafeMutablePointer<trailhead_plugin>?
}

private let exported = Mutex(ExportedState())

/// Copies `text` into memory the host releases with `free_result`.
private func hand(_ text: String, to out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) {
    out?.pointee = strdup(text)
}

private func errorDocument(_ message: String) -> String {
    GeneratedContent.object(["error": .string(message)]).jsonString
}

private let exportedOpen: @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 = { configJSON, errorOut in
    guard let plugin = exported.withLock({ $0.plugin }) else { return 1 }
    do {
        let text = configJSON.map { String(cString: $0) } ?? "{}"
        let config = try GeneratedContent(json: text)
        try plugin.open(PluginConfig(config))
        return 0
    } catch {
        hand("\(error)", to: errorOut)
        return 1
    }
}

private let exportedCall: @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 = { toolName, argumentsJSON, resultOut in
    let name = toolName.map { String(cString: $0) } ?? ""
    guard let tool = exported.withLock({ $0.toolsByName[name] }) else {
        hand(errorDocument("unknown tool '\(name)'"), to: resultOut)
        return 1
    }
    do {
        let arguments = try GeneratedContent(json: argumentsJSON.map { String(cString: $0) } ?? "{}")
        let result = try tool.call(json: arguments)
        hand(result.jsonString, to: resultOut)
        return 0
    } catch let failure as ToolFailure {
        hand(errorDocument(failure.message), to: resultOut)
        return 1
    } catch {
        hand(errorDocument("\(error)"), to: resultOut)
        return 1
    }
}
