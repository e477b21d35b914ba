import Foundation
import GeoIndex
import PointsOfInterestTypes

/// `agent geodata`: the points-of-interest index (build, import, info). The work is in the
/// GeoIndex library; these commands only read their arguments and print summaries.
struct GeodataCommand: Command {
    static let configuration = CommandConfiguration(
        name: "geodata",
        summary: "Build, extend and inspect the points-of-interest index.",
        subcommands: [GeodataBuildCommand.self, GeodataImportCommand.self, GeodataInfoCommand.self])
}

/// `--index PATH`, shared by the commands that read or extend an index.
struct GeodataIndexOptions: ParsableArguments {
    @Option(valueName: "PATH", help: "The index file (default: $TRAILHEAD_CACHE/geo/poi.sqlite).")
    var index: String?

    /// The index's path: the option, else `$TRAILHEAD_CACHE/geo/poi.sqlite`.
    func path(_ context: CommandContext) -> String {
        if let index { return context.absolutePath(index) }
        let cache = context.environment["TRAILHEAD_CACHE"] ?? (NSHomeDirectory() + "/.cache/trailhead")
        return cache + "/geo/poi.sqlite"
    }
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
            """)

    @Option(valueName: "PATH", help: "The index file to write (replaced if it exists).") var out: String?
    @Option(valueName: "DIR", help: "Folder of curated landmark files (<slug>.json).") var landmarks: String?
    @Option(valueName: "FILE", help: "A GeoJSON or .osm.pbf file to import; repeatable.") var geojson: [String] = []

    func run(context: CommandContext) async throws -> ExitCode {
        guard let out else { throw UsageError("missing --out PATH") }
        let summary = try GeoIndexBuilder.build(
            output: context.absolutePath(out), landmarksDirectory: landmarks.map(context.absolutePath),
            geoJSONFiles: geojson.map(context.absolutePath))
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
            """)

    @OptionGroup var index: GeodataIndexOptions
    @Argument("FILE", help: "GeoJSON (.geojson, .geojsonseq) or OpenStreetMap (.osm.pbf) files.") var files: [String]

    func run(context: CommandContext) async throws -> ExitCode {
        guard !files.isEmpty else { throw UsageError("give at least one FILE to import") }
        let writer = try GeoIndexWriter(path: index.path(context))
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
        summary: "Show what an index holds: places by category, landmarks, sources.")

    @OptionGroup var index: GeodataIndexOptions

    func run(context: CommandContext) async throws -> ExitCode {
        let path = index.path(context)
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
