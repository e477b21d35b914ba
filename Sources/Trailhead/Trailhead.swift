// Trailhead: Foundation Models' programming model for Swift on Linux, and more.
//
//     import Trailhead
//
//     struct Weather: Tool { … }
//     let session = LanguageModelSession(tools: [Weather()], instructions: "Answer briefly.")
//     let answer = try await session.respond(to: "Do I need an umbrella in Lisbon?")
//
// One import brings the session (`LanguageModelSession`, `Tool`, `Transcript`, grounding), the
// models (`SystemLanguageModel.default`, OpenAI-compatible servers, hybrids, scripted replays),
// plugin tools (`ToolRegistry`, `PluginTool`) and schemas (`Generable`, `SchemaBuilder`,
// `GenerationSchema`, `GeneratedContent`).
@_exported import TrailheadAgent
@_exported import TrailheadModels
@_exported import TrailheadSchema
@_exported import TrailheadTools
