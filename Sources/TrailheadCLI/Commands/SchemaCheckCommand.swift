import Foundation
import TrailheadSchema

/// `agent schema check SCHEMA [INSTANCES]`: validates JSON Lines against a schema.
///
/// Output contract (one line per input line, so results line up with the input):
/// `valid`, or `invalid<TAB><instance pointer><TAB><message>` for the first violation; with
/// `--all`, `invalid` then each violation as `  <instance pointer><TAB><message>`. A line that
/// is not JSON (an empty line included) is `invalid<TAB><TAB>not JSON: <parser message>`.
/// Exit status: 0 all valid, 1 any invalid, 2 unusable schema or unreadable input.
struct SchemaCheckCommand: Command {
    static let configuration = CommandConfiguration(
        name: "check",
        summary: "Validate JSON instances, one per line, against a schema.",
        discussion: """
            Prints one line per instance: 'valid', or 'invalid<TAB>POINTER<TAB>MESSAGE' for the
            first violation. A trailing newline at the end of the input does not make a line;
            an empty line is not JSON and is reported invalid. Exits 0 when all are valid,
            1 when any is invalid, 2 when the schema cannot be read or uses an unsupported
            keyword.
            """)

    @Flag(help: "List every violation of an invalid instance, one per line.") var all: Bool
    @Argument("SCHEMA", help: "The schema, a JSON file.") var schema: String
    @Argument("INSTANCES", help: "JSON Lines file of instances; '-' or omitted reads stdin.") var instances: String?

    func run(context: CommandContext) async throws -> ExitCode {
        let schema = try Self.loadSchema(self.schema, context: context)
        let input = try Self.readInstances(instances, context: context)
        var report = ValidationReport(listsEveryViolation: all, output: context.stdout)
        for line in JSONLines(input) {
            report.check(line, against: schema)
        }
        report.flush()
        return report.invalidCount == 0 ? .success : .failure
    }

    /// The schema in the file at `path`; an unreadable file, bad JSON or a keyword outside the subset is a usage error naming it.
    static func loadSchema(_ path: String, context: CommandContext) throws -> GenerationSchema {
        let bytes = try readFile(path, what: "schema", context: context)
        let document: GeneratedContent
        do {
            document = try GeneratedContent(json: bytes)
        } catch {
            throw CommandError("schema \(path) is not JSON: \(error)", exitCode: .usage)
        }
        do {
            return try GenerationSchema(json: document)
        } catch {
            let pointer = error.pointer.isEmpty ? "/" : error.pointer
            let blame = error.keyword.map { "keyword '\($0)' at \(pointer)" } ?? "at \(pointer)"
            throw CommandError("schema \(path): \(blame): \(error.message)", exitCode: .usage)
        }
    }

    private static func readInstances(_ path: String?, context: CommandContext) throws -> [UInt8] {
        guard let path, path != "-" else { return context.readStandardInput() }
        return try readFile(path, what: "instances", context: context)
    }

    private static func readFile(_ path: String, what: String, context: CommandContext) throws -> [UInt8] {
        do {
            return try FileBytes.read(context.absolutePath(path))
        } catch {
            throw CommandError("cannot read \(what) file \(path): \(error.reason)", exitCode: .usage)
        }
    }
}
