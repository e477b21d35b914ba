// Trailhead: Foundation Models' programming model for Swift on Linux, and more.
//
//     import Trailhead
//
//     struct Weather: Tool { … }
//     let session = LanguageModelSession(tools: [Weather()], instructions: "Answer briefly.")
//     let answer = try await session.respond(to: "Do I need an umbrella in Lisbon?")
//
// One import brings what a client of the session needs: the session and its options, tools and
// plugins, the models to pick from, typed generation, and the errors these throw. It re-exports
// each of those declarations by name rather than whole modules, so the parts' internals that are
// public for the other modules (the agent loop's step schema, manifests, grammars and the local
// server's internals, schema editing, the tool host) stay out of a client's namespace; a
// client that needs them imports the module. A model of one's own (Foundation Models 27's
// `LanguageModel`) needs only what is here: the request, messages, events and capabilities.
// A new public type a client needs is one line in its group below.

// MARK: - The session

@_exported import class TrailheadAgent.LanguageModelSession
@_exported import struct TrailheadAgent.Instructions
@_exported import struct TrailheadAgent.Prompt
@_exported import protocol TrailheadSchema.PromptRepresentable
@_exported import struct TrailheadModels.GenerationOptions
@_exported import enum TrailheadAgent.SessionEvent
@_exported import typealias TrailheadAgent.Usage
@_exported import struct TrailheadAgent.TranscriptErrorHandlingPolicy
@_exported import struct TrailheadAgent.Transcript
@_exported import class TrailheadAgent.TranscriptWriter
@_exported import class TrailheadAgent.Trace

// MARK: - Traces over OTLP (OpenTelemetry's GenAI conventions)

@_exported import struct TrailheadAgent.Telemetry
@_exported import class TrailheadAgent.OTLPExporter
@_exported import struct TrailheadAgent.SpanContext
@_exported import enum TrailheadAgent.SpanKind
@_exported import enum TrailheadAgent.SpanAttribute
@_exported import class TrailheadAgent.OpenSpan
@_exported import struct TrailheadAgent.FinishedSpan

// MARK: - Tools: in-process, from plugins, and how the session calls them

@_exported import protocol TrailheadAgent.Tool
@_exported import struct TrailheadAgent.NarrowedTool
@_exported import func TrailheadAgent.narrowed
@_exported import struct TrailheadAgent.PluginTool
@_exported import class TrailheadTools.ToolRegistry
@_exported import struct TrailheadAgent.ToolCallRequest
@_exported import struct TrailheadAgent.ToolCallOutcome
@_exported import typealias TrailheadAgent.ToolCallHook
@_exported import struct TrailheadAgent.ToolDecision
@_exported import struct TrailheadAgent.ToolSearch

// MARK: - Grounding: answers checked against what the tools said

@_exported import struct TrailheadAgent.Grounding

// MARK: - What the model reads of the history

@_exported import struct TrailheadAgent.HistoryTransform
@_exported import struct TrailheadAgent.HistoryEntry
@_exported import struct TrailheadAgent.ToolOutputSummary

// MARK: - Sessions kept and resumed

@_exported import protocol TrailheadAgent.SessionStore
@_exported import struct TrailheadAgent.StoredSession
@_exported import class TrailheadAgent.FileSessionStore
@_exported import class TrailheadAgent.SessionRecorder

// MARK: - Models to pick from

@_exported import protocol TrailheadModels.LanguageModel
@_exported import struct TrailheadModels.LanguageModelCapabilities
@_exported import enum TrailheadModels.ModelEvent
@_exported import struct TrailheadModels.ModelResponse
@_exported import struct TrailheadModels.ModelTimings
@_exported import struct TrailheadModels.TokenUsage
@_exported import struct TrailheadModels.ModelRequest
@_exported import struct TrailheadModels.ChatMessage
@_exported import typealias TrailheadModels.SystemLanguageModel
@_exported import class TrailheadModels.LocalModel
@_exported import struct TrailheadModels.LocalModelConfiguration
@_exported import struct TrailheadModels.ModelAssets
@_exported import class TrailheadModels.OpenAICompatibleModel
@_exported import struct TrailheadModels.OpenAICompatibleConfiguration
@_exported import struct TrailheadModels.ModelEndpoint
@_exported import struct TrailheadModels.RetryPolicy
@_exported import enum TrailheadModels.StructuredOutputDialect
@_exported import struct TrailheadModels.HybridModel
@_exported import class TrailheadModels.ModelFleet
@_exported import class TrailheadModels.ScriptedModel
@_exported import enum TrailheadModels.ModelSpecifier
@_exported import enum TrailheadModels.ModelAvailability
@_exported import enum TrailheadModels.UnavailableReason

// MARK: - Typed generation: Generable types, schemas, the JSON value

@_exported import protocol TrailheadSchema.Generable
@_exported import struct TrailheadSchema.Guide
@_exported import struct TrailheadSchema.GuideTable
@_exported import struct TrailheadSchema.Partial
@_exported import typealias TrailheadSchema.PartiallyGeneratedContent
@_exported import struct TrailheadSchema.GenerationSchema
@_exported import struct TrailheadSchema.SchemaBuilder
@_exported import enum TrailheadSchema.GeneratedContent
@_exported import struct TrailheadSchema.JSONObject

// MARK: - Errors a client catches

@_exported import enum TrailheadModels.LanguageModelError
@_exported import enum TrailheadModels.ModelError
@_exported import struct TrailheadModels.HybridError
@_exported import enum TrailheadTools.ToolCallError
@_exported import struct TrailheadTools.PluginLoadError
@_exported import struct TrailheadAgent.GroundingFailure
@_exported import struct TrailheadAgent.SessionSetupError
@_exported import struct TrailheadAgent.TranscriptError
@_exported import struct TrailheadAgent.SessionStoreError
@_exported import struct TrailheadSchema.SchemaError
@_exported import struct TrailheadSchema.SchemaViolation
@_exported import struct TrailheadSchema.SchemaDerivationError
@_exported import struct TrailheadSchema.GeneratedContentInvalid
@_exported import struct TrailheadSchema.JSONSyntaxError
