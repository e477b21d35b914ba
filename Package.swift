// swift-tools-version:6.0
// Trailhead: a plugin-based, tool-calling agent runtime for Swift on Linux.
// Only the toolchain and Debian's C libraries: no outside packages, no macros.
import PackageDescription

let package = Package(
    name: "Trailhead",
    products: [
        // What a Swift developer imports to write an agent: sessions, tools, models, schemas.
        .library(name: "Trailhead", targets: ["Trailhead"]),
        // The flagship agent, a client of the session API.
        .library(name: "TripPlanner", targets: ["TripPlanner"]),
        .executable(name: "agent", targets: ["agent"]),
        .executable(name: "agent-tool-host", targets: ["agent-tool-host"]),
        .library(name: "TrailheadSchema", targets: ["TrailheadSchema"]),
        .library(name: "TrailheadTools", targets: ["TrailheadTools"]),
        .library(name: "TrailheadPluginKit", targets: ["TrailheadPluginKit"]),
        // Plugins: shared libraries loaded at run time (installed into Plugins/ by `make`).
        .library(name: "ContactsTool", type: .dynamic, targets: ["ContactsTool"]),
        .library(name: "CalendarTool", type: .dynamic, targets: ["CalendarTool"]),
        .library(name: "PoiTool", type: .dynamic, targets: ["PoiTool"]),
        // A plugin for tests and benchmarks: echo, and tools that crash, hang or misbehave.
        .library(name: "FixtureTool", type: .dynamic, targets: ["FixtureTool"]),
    ],
    targets: [
        // Small things every part may need and none owns: SHA-256, the monotonic clock, the one
        // process runner, the plugin sandbox (Landlock, seccomp).
        // The HTTP server (libmicrohttpd) and client (libcurl) too.
        .target(name: "TrailheadSupport", dependencies: ["CTrailheadSystem", "CMicroHTTPD", "CCurl"]),
        // Linux calls Swift cannot make itself (GNU spawn extensions, raw system calls).
        .target(name: "CTrailheadSystem"),

        // The JSON value, schemas, validation, partial JSON, prompt rendering.
        .target(name: "TrailheadSchema"),

        // The plugin ABI (a header that plugins written anywhere compile against).
        .target(name: "CTrailheadTool"),
        .systemLibrary(name: "CFFI", pkgConfig: "libffi", providers: [.apt(["libffi-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CICal", pkgConfig: "libical", providers: [.apt(["libical-dev"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),

        // Manifests, loading, the native binding, the isolated worker client, the registry.
        .target(name: "TrailheadTools", dependencies: ["TrailheadSchema", "TrailheadSupport", "CTrailheadTool", "CFFI"]),
        // The LanguageModel protocol and its backends: OpenAI-compatible HTTP, the managed local
        // llama-server, hybrid, scripted; and the JSON-Schema→GBNF compiler.
        .target(name: "TrailheadModels", dependencies: ["TrailheadSchema", "TrailheadSupport"]),
        // What a Swift plugin author imports.
        .target(name: "TrailheadPluginKit", dependencies: ["TrailheadSchema", "CTrailheadTool"]),
        // RFC 5545 calendars through libical: parsing, recurrence expansion, free days, writing.
        .target(name: "ICalendar", dependencies: ["CICal", "TrailheadSchema"]),

        // Sessions (LanguageModelSession, Tool, grounding), the agent loop and its step schema,
        // transcripts and traces.
        .target(name: "TrailheadAgent", dependencies: ["TrailheadSchema", "TrailheadSupport", "TrailheadModels", "TrailheadTools"]),
        // The umbrella a developer imports: re-exports, by name, what a client of the session needs
        // from the session API, models, tools and schemas (the list: Sources/Trailhead/Trailhead.swift).
        .target(name: "Trailhead", dependencies: ["TrailheadSchema", "TrailheadModels", "TrailheadTools", "TrailheadAgent"]),
        // Session transcripts in PostgreSQL through libpq, shared by every `agent serve` replica.
        .target(name: "TrailheadPostgres", dependencies: ["CLibPQ", "TrailheadAgent", "TrailheadSchema"]),
        // `agent serve`: agents over OpenAI-compatible HTTP (chat completions, responses), sessions
        // in a store, requests spread over a fleet of model endpoints.
        // Its web app's plain files (Web/: HTML, CSS, JavaScript; no build step) are resources.
        .target(name: "TrailheadServer", dependencies: ["TrailheadAgent", "TrailheadModels", "TrailheadSchema", "TrailheadSupport", "TrailheadTools", "TrailheadPostgres", "TripPlanner"],
                resources: [.copy("Web")]),
        // The trip planner: Itinerary, its grounding and prefetching, on top of the session API.
        .target(name: "TripPlanner", dependencies: ["TrailheadAgent", "TrailheadModels", "TrailheadSchema", "PointsOfInterestTypes"]),

        // `agent eval`'s grading, apart from the product: a plan's checks against its request and the
        // tools' results (Plans/), and the Berkeley Function Calling Leaderboard run (BFCL/).
        .target(name: "TrailheadEvaluation", dependencies: ["TrailheadAgent", "TrailheadModels", "TrailheadSchema", "TrailheadSupport", "TripPlanner"]),

        // What the points-of-interest plugin and its readers agree on: the kinds of place and
        // `findPointsOfInterest`'s result, whose JSON is the wire (no index, no plugin code).
        .target(name: "PointsOfInterestTypes", dependencies: ["TrailheadSchema"]),
        // The geodata index behind the points-of-interest plugin: build, import, query (SQLite).
        .target(name: "GeoIndex", dependencies: ["CSQLite", "TrailheadSchema", "TrailheadSupport", "PointsOfInterestTypes"]),

        // The command line: argument parsing and the commands, kept in a library so tests can reach it.
        .target(name: "TrailheadCLI", dependencies: ["TrailheadSchema", "TrailheadSupport", "TrailheadTools", "TrailheadModels", "TrailheadAgent", "TripPlanner", "TrailheadEvaluation", "PointsOfInterestTypes", "GeoIndex", "TrailheadServer"]),
        .executableTarget(name: "agent", dependencies: ["TrailheadCLI"]),
        .executableTarget(name: "agent-tool-host", dependencies: ["TrailheadTools"]),
        .executableTarget(name: "trailhead-bench", dependencies: ["TrailheadSchema", "TrailheadSupport", "TrailheadTools", "TrailheadModels", "TrailheadAgent", "PointsOfInterestTypes", "GeoIndex", "VCard", "ICalendar", "TrailheadServer"]),

        // The bundled plugins.
        // Our own vCard 2.1/3.0/4.0 reader and contact search (no plugin code, so tests can link it).
        .target(name: "VCard"),
        .target(name: "ContactsTool", dependencies: ["TrailheadPluginKit", "VCard"]),
        .target(name: "CalendarTool", dependencies: ["TrailheadPluginKit", "ICalendar"]),
        .target(name: "PoiTool", dependencies: ["TrailheadPluginKit", "PointsOfInterestTypes", "GeoIndex"]),
        .target(name: "FixtureTool", dependencies: ["TrailheadPluginKit"]),

        // What the test targets share: the checkout, the built products, a scratch folder, the
        // cache's test data and Python, running the built `agent`, waiting for another process.
        .target(name: "TrailheadTestSupport", dependencies: ["TrailheadSupport", "TrailheadSchema"], path: "Tests/TrailheadTestSupport"),
        .testTarget(name: "TrailheadSchemaTests", dependencies: ["TrailheadSchema", "TrailheadSupport", "TrailheadTestSupport"]),
        .testTarget(name: "TrailheadToolsTests", dependencies: ["TrailheadTools", "TrailheadSchema", "TrailheadSupport", "TrailheadTestSupport"]),
        .testTarget(name: "TrailheadModelsTests", dependencies: ["TrailheadModels", "TrailheadSchema", "TrailheadSupport", "TrailheadTestSupport"]),
        .testTarget(name: "TrailheadServerTests", dependencies: ["TrailheadServer", "TrailheadPostgres", "TrailheadAgent", "TrailheadModels", "TrailheadSchema", "TrailheadSupport", "TrailheadTestSupport", "TripPlanner"],
                    exclude: ["Clients", "Browser"]),
        .testTarget(name: "TrailheadCLITests", dependencies: ["TrailheadCLI", "TrailheadModels", "TrailheadSchema", "TrailheadSupport", "TrailheadTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "TrailheadAgentTests", dependencies: ["Trailhead", "TrailheadAgent", "TrailheadModels", "TrailheadSchema", "TripPlanner", "PointsOfInterestTypes"]),
        .testTarget(name: "TrailheadEvaluationTests", dependencies: ["TrailheadEvaluation", "TripPlanner", "TrailheadAgent", "TrailheadModels", "TrailheadSchema", "TrailheadSupport", "TrailheadTestSupport"]),
        .testTarget(name: "VCardTests", dependencies: ["VCard", "TrailheadSupport", "TrailheadTestSupport"]),
        .testTarget(name: "ICalendarTests", dependencies: ["ICalendar", "TrailheadSchema", "TrailheadSupport", "TrailheadTestSupport"]),
        .testTarget(name: "GeoIndexTests", dependencies: ["GeoIndex", "PointsOfInterestTypes", "TrailheadSchema", "TrailheadSupport", "TrailheadTestSupport", "CTrailheadTool"]),
    ],
    swiftLanguageModes: [.v6]
)
