import Foundation
import TrailheadSchema

/// A crash of the managed llama-server, remembered in `run/local-model.crash.json` for as long as
/// the installation that crashed is unchanged: a server killed by SIGILL would die the same way on
/// every start, so no command starts it again, and `availability` says why, until it is rebuilt
/// (which changes the files it is identified by) or `agent model check` passes on it.
struct LocalServerCrash: Sendable, Equatable {
    var server: String
    /// The installation's files (the binary and the CPU backends beside it) when it crashed.
    var installation: String
    var termination: ProcessTermination
    var message: String

    init(server: String, termination: ProcessTermination, activity: String, logPath: String, logTail: String) {
        self.server = server
        self.installation = Self.identity(ofInstallation: server)
        self.termination = termination
        var message = "llama-server \(termination) while \(activity)"
        if case .killed(SIGILL) = termination {
            message += ": this binary does not suit this CPU (it executed an instruction that this CPU, or the virtual"
                + " machine around it, does not allow). \(Self.rebuildAdvice)"
        } else {
            message += ". \(Self.rebuildAdvice)"
        }
        message += " Its log (\(logPath)) ends:\n\(logTail)"
        self.message = message
    }

    private init(server: String, installation: String, termination: ProcessTermination, message: String) {
        self.server = server
        self.installation = installation
        self.termination = termination
        self.message = message
    }

    static let rebuildAdvice =
        "Rebuild it on this machine with `make model` in the Trailhead checkout (Scripts/build-llama-server.sh):"
        + " it builds every CPU variant and keeps only those that pass a smoke test here; `agent doctor` checks it."

    /// The unavailability it causes, for `LanguageModel.availability`.
    var reason: UnavailableReason {
        if case .killed(SIGILL) = termination {
            return .cannotRunHere(detail: "this CPU cannot run \(server) (\(termination))", fix: "`make model` (Scripts/build-llama-server.sh), then `agent doctor`")
        }
        return .serverFailed(detail: "\(server) \(termination)", fix: "`make model` (Scripts/build-llama-server.sh), then `agent doctor`")
    }

    /// True when it was recorded against `server` as it is installed now.
    func concerns(server: String) -> Bool {
        self.server == server && installation == Self.identity(ofInstallation: server)
    }

    /// Names, sizes and modification times of the files in the binary's folder: a rebuild, or a
    /// CPU variant removed by the build's smoke test, changes it.
    static func identity(ofInstallation server: String) -> String {
        let folder = (server as NSString).deletingLastPathComponent
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        return names.map { name in
            let attributes = try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)
            let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
            let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            return "\(name):\(size):\(Int64(modified * 1000))"
        }.joined(separator: ",")
    }

    static func read(_ path: String) -> LocalServerCrash? {
        guard let data = FileManager.default.contents(atPath: path), let content = try? GeneratedContent(json: data),
            let server = content["server"]?.stringValue, let installation = content["installation"]?.stringValue,
            let message = content["message"]?.stringValue
        else { return nil }
        let termination: ProcessTermination
        if let signal = content["signal"]?.intValue {
            termination = .killed(signal: Int32(signal))
        } else if let status = content["status"]?.intValue {
            termination = .exited(status: Int32(status))
        } else {
            return nil
        }
        return LocalServerCrash(server: server, installation: installation, termination: termination, message: message)
    }

    func write(_ path: String) {
        var content: JSONObject = ["server": .string(server), "installation": .string(installation), "message": .string(message)]
        switch termination {
        case .killed(let signal): content["signal"] = .number(Double(signal))
        case .exited(let status): content["status"] = .number(Double(status))
        }
        try? GeneratedContent.object(content).jsonString.write(toFile: path, atomically: true, encoding: .utf8)
    }

    static func forget(_ path: String) { try? FileManager.default.removeItem(atPath: path) }
}
