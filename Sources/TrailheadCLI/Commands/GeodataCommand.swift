import Foundation
import GeoIndex

/// `agent geodata`: the points-of-interest index (build, import, info). The work is in the
/// GeoIndex library; these commands only read their arguments and print summaries.
struct GeodataCommand: Command {
    static let configuration = CommandConfiguration(
        name: "geodata",
        summary: "Build, extend and inspect the points-of-interest index.",
        subcommands: [GeodataBuildCommand.self, GeodataImportCommand.self, GeodataInfoCommand.self])

    /// Where the index lives unless `--index` says otherwise: `$TRAILHEAD_CACHE/geo/poi.sqlite`.
    static func defaultIndex(_ context: CommandContext) -> String {
        let cache = context.environment["TRAILHEAD_CACHE"] ?? (NSHomeDirectory() + "/.cache/trailhead")
        return cache + "/geo/poi.sqlite"
    }

    static let indexOption = OptionSpec.option(
        "index", valueName: "PATH", help: "The index file (default: $TRAILHEAD_CACHE/geo/poi.sqlite).")
}

/// `agent geodata build --out PATH [--landmarks DIR] [--geojson FILE]…`
struct GeodataBuildCommand: Command {
    static let configuration = CommandConfiguration(
        name: "build",
        summary: "Build a new index from curated landmarks and GeoJSON or OpenStreetMap files.",
        discussion: """
            Writes the index under a temporary name and renames it into place, so a failed build
            leaves the old index. --geojson takes a FeatureCollection, a GeoJSON text sequence
            (.geojsonseq), either gzip-compressed (.gz), or an OpenStreetMap extract (.osm.pbf,
            converted with osmium). Non-places (eclipses, meridians, lists) and rows that repeat
            a curated place are left out and counted (Data/poi/README.md has the rules).
            """,
        options: [
            .option("out", valueName: "PATH", help: "The index file to write (replaced if it exists)."),
            .option("landmarks", valueName: "DIR", help: "Folder of curated landmark files (<slug>.json)."),
            .option("geojson", valueName: "FILE", repeatable: true, help: "A GeoJSON or .osm.pbf file to import; repeatable."),
        ])

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        guard let out = arguments.value(of: "out") else { throw UsageError("missing --out PATH") }
        let summary = try GeoIndexBuilder.build(
            output: context.absolutePath(out),
            landmarksDirectory: arguments.value(of: "landmarks").map(context.absolutePath),
            geoJSONFiles: arguments.values(of: "geojson").map(context.absolutePath))
        context.stdout.line("\(out): \(summary)")
        return .success
    }
}

/// `agent geodata import FILE… [--index PATH]`
struct GeodataImportCommand: Command {
    static let configuration = CommandConfiguration(
        name: "import",
        summary: "Add the places of GeoJSON or OpenStreetMap files to an index.",
        discussion: """
            Each file is imported in one transaction: a malformed feature stops that file with
            its line and nothing of it is written. Features need a name, and a 'category'
            property (hike, viewpoint, campground, lodging, restaurant, cafe, museum, marina,
            beach, stargazing, landmark, town, airport) or OpenStreetMap tags that map to one
            (tourism=viewpoint, amenity=restaurant, historic=castle…); others are skipped and
            counted. Files in $TRAILHEAD_CACHE/geo/extra/ are imported by every `make` rebuild.
            """,
        options: [GeodataCommand.indexOption],
        positionals: [.variadic("FILE", help: "GeoJSON (.geojson, .geojsonseq) or OpenStreetMap (.osm.pbf) files.")])

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let files = arguments.positionals("FILE")
        guard !files.isEmpty else { throw UsageError("give at least one FILE to import") }
        let index = arguments.value(of: "index").map(context.absolutePath) ?? GeodataCommand.defaultIndex(context)
        let writer = try GeoIndexWriter(path: index)
        for file in files {
            let summary = try writer.importFile(context.absolutePath(file))
            context.stdout.line("\(file): \(summary)")
        }
        try writer.optimize()
        try writer.checkpoint()
        return .success
    }
}

/// `agent geodata info [--index PATH]`
struct GeodataInfoCommand: Command {
    static let configuration = CommandConfiguration(
        name: "info",
        summary: "Show what an index holds: places by category, landmarks, sources.",
        options: [GeodataCommand.indexOption])

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let path = arguments.value(of: "index").map(context.absolutePath) ?? GeodataCommand.defaultIndex(context)
        let index = try GeoIndex(path: path)
        let counts = try index.countsByCategory()
        context.stdout.line("index: \(path)")
        context.stdout.line("landmarks: \(try index.landmarkCount())")
        for category in PoiCategory.allCases where counts[category] != nil {
            context.stdout.line("\(category.rawValue): \(counts[category]!)")
        }
        if let built = try index.metadata("builtAt") { context.stdout.line("built: \(built)") }
        return .success
    }
}
