import Foundation
import TrailheadSchema

/// What the state file (`run/local-model.MODEL.json`) remembers about the managed server, so the next
/// `agent` command reuses it instead of loading the model again.
public struct LocalServerRecord: Sendable, Equatable {
    public var pid: Int32
    public var port: Int
    /// The model file it serves, and the binary it runs.
    public var modelPath: String
    public var serverPath: String
    /// Seconds since 1970.
    public var startedAt: Double
    /// Its parallel slots (`-np`) and context per slot; a server started with others is not reused.
    public var slots: Int
    public var contextPerSlot: Int

    public var endpoint: String { "http://127.0.0.1:\(port)/v1" }

    var content: GeneratedContent {
        // `pid` first: the watchdog script recognises its server by the text `{"pid":N,`.
        [
            "pid": .number(Double(pid)), "port": .number(Double(port)), "model": .string(modelPath),
            "server": .string(serverPath), "startedAt": .number(startedAt),
            "slots": .number(Double(slots)), "contextPerSlot": .number(Double(contextPerSlot)),
        ]
    }

    init(pid: Int32, port: Int, modelPath: String, serverPath: String, startedAt: Double, slots: Int = 1, contextPerSlot: Int = 0) {
        self.slots = slots
        self.contextPerSlot = contextPerSlot
        self.pid = pid
        self.port = port
        self.modelPath = modelPath
        self.serverPath = serverPath
        self.startedAt = startedAt
    }

    /// Reads the state file; `nil` when it is missing or unreadable (a stale or corrupt file is
    /// not an error: the server is simply started afresh).
    static func read(_ path: String) -> LocalServerRecord? {
        guard let data = FileManager.default.contents(atPath: path),
            let content = try? GeneratedContent(json: data),
            let pid = content["pid"]?.intValue, let port = content["port"]?.intValue,
            let model = content["model"]?.stringValue, let server = content["server"]?.stringValue
        else { return nil }
        return LocalServerRecord(
            pid: Int32(pid), port: port, modelPath: model, serverPath: server,
            startedAt: content["startedAt"]?.doubleValue ?? 0,
            // A record written before slots were recorded was a one-slot server.
            slots: content["slots"]?.intValue ?? 1, contextPerSlot: content["contextPerSlot"]?.intValue ?? 0)
    }

    /// Writes atomically (a reader never sees half a file).
    func write(_ path: String) throws(ModelError) {
        do { try content.jsonString.write(toFile: path, atomically: true, encoding: .utf8) } catch {
            throw .localServer(message: "cannot write \(path): \(error)")
        }
    }
}
