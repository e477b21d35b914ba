// An agent from another domain on the same runtime: find a day when everyone is free, using the
// contacts and calendar plugins, and draft the invitation into a separate .ics file with
// `calendarAddEvents` (a tool that needs the user's approval).
//
//     MeetingScheduler "Ana, Ben" "Trail maintenance planning" [--from DATE --to DATE] [--out FILE]
//                      [--model local|local:test|scripted:FILE] [--yes]
import Foundation
import Trailhead

struct Invitation: Generable {
    let date: String
    let startTime: String
    let attendees: [String]
    let subject: String
    let message: String

    static let generationSchema = SchemaBuilder.object(properties: [
        "date": .string(description: "A free day, YYYY-MM-DD"),
        "startTime": .string(enum: ["09:00", "10:00", "11:00", "14:00", "15:00", "16:00"]),
        "attendees": .array(of: .string(), minItems: 1, maxItems: 8),
        "subject": .text(words: 2...8),
        "message": .text(words: 5...30, description: "The invitation, addressed to the attendees"),
    ]).declaredSchema
}

var arguments = Array(CommandLine.arguments.dropFirst())
@MainActor func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    defer { arguments.removeSubrange(index...index + 1) }
    return arguments[index + 1]
}
let modelSpec = option("--model") ?? "local"
let from = option("--from") ?? "2026-12-01"
let to = option("--to") ?? "2026-12-31"
let out = option("--out") ?? FileManager.default.temporaryDirectory.appendingPathComponent("invitation.ics").path
let approveAll = arguments.contains("--yes")
arguments.removeAll { $0 == "--yes" }
guard arguments.count == 2 else {
    print("usage: MeetingScheduler \"Ana, Ben\" \"subject\" [--from DATE --to DATE] [--out FILE] [--model SPEC] [--yes]")
    exit(2)
}
let (people, topic) = (arguments[0], arguments[1])

let home = ProcessInfo.processInfo.environment["TRAILHEAD_HOME"] ?? FileManager.default.currentDirectoryPath
let registry = ToolRegistry(.checkout(home))
defer { registry.shutdown() }
/// Ends the program with a sentence saying what went wrong (exit 1), never a trap.
func fail(_ message: String) -> Never {
    print(message)
    registry.shutdown()
    exit(1)
}
let plugins: [PluginTool]
do { plugins = try registry.sessionTools(plugins: ["contacts", "calendar"]) } catch { fail("The plugins cannot be loaded: \(error)") }
func plugin(_ name: String) -> PluginTool? { plugins.first { $0.name == name } }
guard let contacts = plugin("searchContacts"), let calendar = plugin("calendarFreeDays"), let invite = plugin("calendarAddEvents") else {
    print("the contacts and calendar plugins are not installed in \(home): run `make`")
    exit(1)
}

// The request fixes who and when to look at: those calls are made for the model, before it starts.
let window: JSONObject = ["start": .string(from), "end": .string(to)]
let who: JSONObject = ["query": .string(people)]
let model: any LanguageModel
do { model = try ModelSpecifier.model(modelSpec) } catch { fail("No model \(modelSpec): \(error)") }
let session = LanguageModelSession(
    model: model,
    tools: [narrowed(contacts, fixing: who, hiding: ["group"]), narrowed(calendar, fixing: window), narrowed(invite, fixing: ["file": .string(out)])],
    instructions: """
        You schedule meetings. Pick a day the calendar reports free, invite the people the contacts tool found, \
        add the meeting with calendarAddEvents, then answer with the invitation.
        """,
    grounding: Grounding([
        .field("/date", from: "calendarFreeDays", at: "/freeDays/*"),
        .field("/attendees/*", from: "searchContacts", at: "/contacts/*/name"),
    ]))
session.configuration.approve = { [approveAll, out] call in
    if approveAll { return true }
    print("Add to \(out): \(call.arguments["events"]?.jsonString ?? "")? [y/N] ", terminator: "")
    return readLine()?.lowercased().hasPrefix("y") == true
}
let invitation: LanguageModelSession.Response<Invitation>
do {
    invitation = try await session.respond(
        to: "Schedule \"\(topic)\" with \(people) between \(from) and \(to).", generating: Invitation.self, includeSchemaInPrompt: false,
        prefetching: [ToolCallRequest(tool: "searchContacts", arguments: .object(who)), ToolCallRequest(tool: "calendarFreeDays", arguments: .object(window))])
} catch {
    let noFreeDay = session.transcript.contains { entry in
        if case .toolOutput(let output) = entry, output.tool == "calendarFreeDays" { return output.result?["freeDays"]?.arrayValue?.isEmpty == true }
        return false
    }
    fail(noFreeDay ? "No meeting: the calendar has no free day between \(from) and \(to)." : "No meeting: \(error)")
}
let value = invitation.content
print("\(value.subject): \(value.date) at \(value.startTime) with \(value.attendees.joined(separator: ", "))")
print(value.message)
let written = session.transcript.contains { entry in
    if case .toolOutput(let output) = entry { return output.tool == "calendarAddEvents" && output.result != nil }
    return false
}
print(written ? "added to \(out)" : "not added to a calendar file")
for entry in session.transcript {
    if case .toolOutput(let output) = entry, let error = output.error { print("\(output.tool) failed: \(error)") }
}
print("\(invitation.turns) model turns, \(invitation.usage.outputTokens) tokens generated, answered by \(invitation.model)")
