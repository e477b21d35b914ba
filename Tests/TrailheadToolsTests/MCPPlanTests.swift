import Foundation
import Testing
import TrailheadSchema
import TrailheadTestSupport

/// `agent plan` with a tool from an MCP server, next to the bundled plugins, on the scripted
/// model: the server's tool is offered, called and recorded like any other, and a server that
/// crashes mid-plan is a tool error the plan goes on from.
@Suite struct MCPPlanTests {
    /// The poi plugin (over an index of the fixture landmarks), the calendar (the sample
    /// calendar), the trail-conditions MCP server and the crashing one.
    private func installation() throws -> TestInstallation {
        let installation = try TestInstallation()
        for library in ["libPoiTool.so", "libCalendarTool.so"] {
            try installation.install(product: library)
            let registered = try AgentProcess.run(["tools", "register", installation.plugins + "/" + library, "--plugins", installation.plugins, "--manifests", installation.manifests])
            #expect(registered.status == 0, "\(registered.stderr)")
        }
        let index = installation.root + "/poi.sqlite"
        let built = try AgentProcess.run(["geodata", "build", "--out", index, "--landmarks", Checkout.root + "/Tests/Fixtures/landmarks"])
        #expect(built.status == 0, "\(built.stderr)")
        try configure(installation, "poi.json", ["index": .string(index)], reading: index)
        let calendar = Checkout.root + "/Data/sample/calendar.ics"
        try configure(installation, "calendar.json", ["calendar": .string(calendar)], reading: calendar)
        try installation.registerMCP(.stdio(command: try MCPFixtures.command("trail_server.py"), environment: [:], directory: nil))
        try installation.registerMCP(.stdio(command: try MCPFixtures.command("crashing_server.py"), environment: [:], directory: nil))
        return installation
    }

    /// Points a plugin's config at `file`, and grants it (isolated plugins read only what they are granted).
    private func configure(_ installation: TestInstallation, _ file: String, _ config: GeneratedContent, reading path: String) throws {
        let text = try String(contentsOfFile: installation.manifests + "/" + file, encoding: .utf8)
        try installation.writeManifest(
            file, try GeneratedContent(json: text).setting("config", config).setting("permissions", ["read": [.string(path)], "network": false]))
    }

    private static let answer =
        #"{"answer":{"title":"Desert Days","description":"Dusty trails among rocks and cactus gardens.","rationale":"Both days are free; carry water on dusty trails.","days":[{"activities":[{"place":"Cholla Cactus Garden Trail"},{"place":"Arch Rock Nature Trail"}]},{"activities":[{"place":"Mastodon Peak Trail"},{"place":"Lost Palms Oasis Trail"}]}]}}"#

    /// `agent plan` for two days at Joshua Tree with `tools` enabled, on the scripted model giving
    /// `outputs`: the command's outcome and the transcript's entries.
    private func plan(_ installation: TestInstallation, tools: String, outputs: [String]) throws -> (AgentProcess.Result, [GeneratedContent]) {
        let script = installation.root + "/script.jsonl"
        try outputs.map { GeneratedContent.string($0).jsonString }.joined(separator: "\n").write(toFile: script, atomically: true, encoding: .utf8)
        let transcript = installation.root + "/run.jsonl"
        let plan = try AgentProcess.run(
            ["plan", "Joshua Tree National Park", "--days", "2", "--tools", tools,
             "--from", "2026-12-01", "--to", "2026-12-31", "--model", "scripted:\(script)", "--transcript", transcript, "--format", "json",
             "--plugins", installation.plugins, "--manifests", installation.manifests],
            environment: ["TRAILHEAD_HOME": installation.root])
        guard let text = try? String(contentsOfFile: transcript, encoding: .utf8) else { return (plan, []) }
        return (plan, try text.split(separator: "\n").map { try GeneratedContent(json: String($0)) })
    }

    @Test func aPlanCallsAnMCPServersToolAndGoesOnAfterAnotherServerCrashes() throws {
        // The calendar and the places around the landmark are fetched before the first turn (the
        // request fixes their arguments); the model calls the servers' tools, then answers.
        let (plan, entries) = try plan(
            try installation(), tools: "poi,calendar,trail-conditions,crashing",
            outputs: [
                #"{"name":"explode","arguments":{}}"#,
                #"{"name":"trailConditions","arguments":{"park":"Joshua Tree National Park","date":"2026-12-12"}}"#,
                Self.answer,
            ])
        #expect(plan.status == 0, "\(plan.stderr)")
        let itinerary = try GeneratedContent(json: plan.stdout)
        // The first two consecutive free days of the sample calendar in December 2026.
        #expect(itinerary["days"]?.arrayValue?.compactMap { $0["date"]?.stringValue } == ["2026-12-12", "2026-12-13"])

        // The model was offered the servers' tools beside the plugins'…
        let offered = entries.first { $0["kind"] == "instructions" }?["tools"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(Set(["calendarFreeDays", "findPointsOfInterest", "trailConditions", "explode", "pid"]).isSubset(of: Set(offered)), "\(offered)")
        // …the crash became a tool error in the transcript…
        let outputsByTool = Dictionary(grouping: entries.filter { $0["kind"] == "toolOutput" }) { $0["tool"]?.stringValue ?? "" }
        let crash = try #require(outputsByTool["explode"]?.first)
        #expect(crash["error"]?.stringValue?.contains("crashed (plugin 'crashing')") == true, "\(crash)")
        // …and the server's answer was recorded like any tool's.
        #expect(outputsByTool["trailConditions"]?.first?["result"]?["surface"] == "dry", "the fixture server answers dry for 12 December")
    }

    @Test func aSingleToolOfAServerCanBeEnabledByName() throws {
        let (plan, entries) = try plan(
            try installation(), tools: "poi,calendar,trailConditions",
            outputs: [#"{"name":"trailConditions","arguments":{"park":"Joshua Tree National Park","date":"2026-12-12"}}"#, Self.answer])
        #expect(plan.status == 0, "\(plan.stderr)")
        let offered = Set(entries.first { $0["kind"] == "instructions" }?["tools"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        #expect(offered.contains("trailConditions") && offered.contains("findPointsOfInterest"), "\(offered)")
        #expect(offered.isDisjoint(with: ["echo", "add", "shout", "refuse", "explode"]), "only the named tool of the server: \(offered)")
        #expect(entries.contains { $0["kind"] == "toolOutput" && $0["tool"] == "trailConditions" })
    }
}
