/// `agent schema`: working with GenerationSchema documents.
struct SchemaCommand: Command {
    static let configuration = CommandConfiguration(
        name: "schema",
        summary: "Check JSON documents against a schema.",
        subcommands: [SchemaCheckCommand.self])
}
