import Foundation

/// Where an OpenAI-compatible model lives: `http://127.0.0.1:8080/v1#model-name`.
///
/// The fragment names the model sent in each request (servers that serve one model, like
/// llama-server, accept any or none). The base URL ends at the API root (`…/v1`).
public struct ModelEndpoint: Sendable, Hashable, CustomStringConvertible {
    public var baseURL: URL
    public var modelName: String?

    public init(baseURL: URL, modelName: String? = nil) {
        self.baseURL = baseURL
        self.modelName = modelName
    }

    /// Parses `http(s)://host[:port]/path[#model]`.
    public init(parsing text: String) throws(ModelError) {
        var base = text
        var name: String?
        if let hash = text.firstIndex(of: "#") {
            base = String(text[..<hash])
            let fragment = String(text[text.index(after: hash)...])
            name = fragment.isEmpty ? nil : fragment
        }
        while base.hasSuffix("/") { base.removeLast() }
        guard let url = URL(string: base), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host != nil
        else {
            throw .unsupportedEndpoint(text)
        }
        self.init(baseURL: url, modelName: name)
    }

    /// `…/v1/chat/completions` and friends.
    func url(_ path: String) -> URL { URL(string: baseURL.absoluteString + path)! }

    /// The server's root (the base URL without a trailing `/v1`), where llama.cpp serves
    /// `/health`, `/props` and `/tokenize`.
    var serverRoot: URL {
        var text = baseURL.absoluteString
        if text.hasSuffix("/v1") { text.removeLast(3) }
        return URL(string: text)!
    }

    public var description: String {
        baseURL.absoluteString + (modelName.map { "#\($0)" } ?? "")
    }
}

extension ModelError {
    static func unsupportedEndpoint(_ text: String) -> ModelError {
        .unavailable(
            model: text,
            reason: .notConfigured(
                detail: "'\(text)' is not a model endpoint",
                fix: "write it as http://HOST:PORT/v1#MODEL"))
    }
}
