import TrailheadModels

/// `--model`, `--fallback` and `--api-key-env`: the model of the commands that run a session
/// (`agent plan`, `agent run`).
struct ModelOptions: ParsableArguments {
    @Option(valueName: "MODEL", help: "The model (default local).") var model = "local"
    @Option(valueName: "MODEL", help: "A model to fall back to.") var fallback: String?
    @Option(valueName: "VAR", help: "Environment variable holding the API key of an HTTP model.") var apiKeyEnv: String?

    /// The model, and the fallback after a comma (`ModelSpecifier`'s list).
    var specifier: String { fallback.map { model + "," + $0 } ?? model }

    /// The model they name; a specifier it cannot read is a usage error.
    func makeModel() throws(CommandError) -> any LanguageModel {
        do {
            return try ModelSpecifier.model(specifier, apiKeyEnvironmentVariable: apiKeyEnv)
        } catch {
            throw CommandError("\(error)", exitCode: .usage)
        }
    }
}
