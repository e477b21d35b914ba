import Foundation

@testable import TrailheadModels

/// A cache folder for a managed model whose `llama-server` is a stand-in script: the stand-ins
/// never read the model, so an empty file satisfies `locate`.
struct StandInCache {
    let folder: String

    init(_ name: String) throws {
        folder = NSTemporaryDirectory() + "trailhead-\(name)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/models", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: folder + "/models/" + ModelAssets.testModel.fileName, contents: Data())
    }

    func remove() { try? FileManager.default.removeItem(atPath: folder) }

    /// Installs a stand-in `llama-server` running `body` under `interpreter`; returns its path.
    func standIn(_ body: String, interpreter: String = "/bin/sh") throws -> String {
        let path = folder + "/bin/llama-server"
        try FileManager.default.createDirectory(atPath: folder + "/bin", withIntermediateDirectories: true)
        try "#!\(interpreter)\n\(body)\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    /// The managed test model served by `server`, its files in this folder.
    func configuration(server: String, idleShutdownSeconds: Int? = nil) -> LocalModelConfiguration {
        let assets = ModelAssets(environment: ["TRAILHEAD_CACHE": folder, "TRAILHEAD_LLAMA_SERVER": server])
        return LocalModelConfiguration(
            model: ModelAssets.testModel, assets: assets, idleShutdownSeconds: idleShutdownSeconds, startupTimeout: 20, verifiesModelFile: false)
    }
}
