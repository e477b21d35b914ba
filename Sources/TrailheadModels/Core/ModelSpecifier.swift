/// Turns the text a user writes after `--model` into a model:
///
/// - `local` (the default Qwen2.5-Coder-1.5B) or `local:test` (SmolLM2-135M): the managed server;
/// - `http(s)://HOST:PORT/v1#NAME`: an OpenAI-compatible server (API key from the variable
///   named by `apiKeyEnvironmentVariable`, never from the command line);
/// - `scripted:PATH`: replays a JSON Lines file or a transcript;
/// - `A,B`: a hybrid of A (preferred) falling back to B.
public enum ModelSpecifier {
    public static func model(
        _ text: String, apiKeyEnvironmentVariable: String? = nil, assets: ModelAssets = ModelAssets()
    ) throws(ModelError) -> any LanguageModel {
        if let comma = text.firstIndex(of: ",") {
            let primary = try model(String(text[..<comma]), apiKeyEnvironmentVariable: apiKeyEnvironmentVariable, assets: assets)
            let secondary = try model(
                String(text[text.index(after: comma)...]), apiKeyEnvironmentVariable: apiKeyEnvironmentVariable, assets: assets)
            return HybridModel(primary: primary, secondary: secondary)
        }
        switch text {
        case "local", "local:default": return LocalModel(configuration: .init(model: ModelAssets.defaultModel, assets: assets))
        case "local:test": return LocalModel(configuration: .init(model: ModelAssets.testModel, assets: assets))
        default: break
        }
        if text.hasPrefix("scripted:") { return try ScriptedModel(path: String(text.dropFirst("scripted:".count))) }
        if text.hasPrefix("http://") || text.hasPrefix("https://") {
            return OpenAICompatibleModel(
                configuration: .init(endpoint: try ModelEndpoint(parsing: text), apiKeyEnvironmentVariable: apiKeyEnvironmentVariable))
        }
        throw .unavailable(
            model: text,
            reason: .notConfigured(
                detail: "'\(text)' is not a model", fix: "use local, local:test, http://HOST:PORT/v1#NAME, scripted:FILE, or A,B"))
    }
}
