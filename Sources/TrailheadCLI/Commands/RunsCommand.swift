import Foundation
import TrailheadAgent
import TrailheadPostgres
import TrailheadSchema

/// `agent runs show | approve | reject`: background responses in PostgreSQL, read and decided
/// without a server (what `GET /v1/responses/{id}` and `POST …/approve|reject` do over HTTP).
struct RunsCommand: Command {
    static let configuration = CommandConfiguration(
        name: "runs",
        summary: "Show a background response, or approve or reject the tool call it waits for.",
        subcommands: [RunsShowCommand.self, RunsDecideCommand<Approve>.self, RunsDecideCommand<Reject>.self])

    static func runs(_ store: String?) throws(CommandError) -> PostgresRunStore {
        guard let url = store, url.hasPrefix("postgresql://") || url.hasPrefix("postgres://") else {
            throw CommandError("--store postgresql://… is required: background responses live in PostgreSQL", exitCode: .usage)
        }
        do {
            let runs = try PostgresRunStore(url: url, connections: 1)
            try runs.migrate()
            return runs
        } catch {
            throw CommandError("--store: \(error.message)", exitCode: .usage)
        }
    }

    static func load(_ runs: PostgresRunStore, _ id: String) throws(CommandError) -> PostgresRunStore.Run {
        do {
            guard let run = try runs.load(id) else { throw CommandError("no background response \(id.prefix(80)) in \(runs.description)") }
            return run
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError("\(error)")
        }
    }
}

/// `agent runs show ID --store URL`: its status, and the call it waits for.
struct RunsShowCommand: Command {
    static let configuration = CommandConfiguration(
        name: "show",
        summary: "Print a background response's status (and the call it waits for) as JSON.")

    @Option(valueName: "URL", help: "postgresql://USER@HOST:PORT/DB, as agent serve's --store.") var store: String?
    @Argument("ID", help: "The response id (resp_bg…).") var id: String

    func run(context: CommandContext) async throws -> ExitCode {
        let runs = try RunsCommand.runs(store)
        let run = try RunsCommand.load(runs, id)
        let shown: GeneratedContent = ["id": .string(run.id), "status": .string(run.status.rawValue), "pending": run.pending ?? .null, "response": run.response ?? .null]
        context.stdout.line(shown.jsonString)
        return .success
    }
}

protocol RunsDecision { static var name: String { get } }
enum Approve: RunsDecision { static let name = "approve" }
enum Reject: RunsDecision { static let name = "reject" }

/// `agent runs approve|reject ID CALL --store URL`: decides the call a run waits for; the run goes
/// back to the queue, for any worker.
struct RunsDecideCommand<Decision: RunsDecision>: Command {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: Decision.name,
            summary: "\(Decision.name == "approve" ? "Approve" : "Reject") the tool call a background response waits for; any worker resumes it.")
    }

    @Option(valueName: "URL", help: "postgresql://USER@HOST:PORT/DB, as agent serve's --store.") var store: String?
    @Argument("ID", help: "The response id (resp_bg…).") var id: String
    @Argument("CALL", help: "The call's call_id (agent runs show ID).") var call: String

    func run(context: CommandContext) async throws -> ExitCode {
        let runs = try RunsCommand.runs(store)
        let approved = Decision.name == "approve"
        let event: GeneratedContent = ["type": .string(approved ? "response.tool_call_approved" : "response.tool_call_rejected"), "call_id": .string(call)]
        let decided: Bool
        do { decided = try runs.decide(id, callID: call, approved: approved, event: event) } catch { throw CommandError(error.message) }
        guard decided else {
            let run = try RunsCommand.load(runs, id)
            throw CommandError("\(id) is \(run.status.rawValue) and does not wait for call \(call.prefix(80))\(run.pending?["call_id"]?.stringValue.map { " (it waits for \($0))" } ?? "")")
        }
        context.stdout.line("\(id): \(approved ? "approved" : "rejected") \(call); queued for any worker")
        return .success
    }
}
