import Foundation

/// The start line and headers of an HTTP/1.1 request or response.
public struct HTTPHead: Sendable {
    /// `["POST", "/mcp", "HTTP/1.1"]` or `["HTTP/1.1", "200", "OK"]`.
    public var startLine: [String]
    /// Header names in lower case; a repeated header keeps its last value.
    public var headers: [String: String]
    /// A request's query parameters (`?stream=true&starting_after=3`), decoded; the start line's
    /// target is the path alone.
    public var query: [String: String]

    public init(startLine: [String], headers: [String: String], query: [String: String] = [:]) {
        self.startLine = startLine
        self.headers = headers
        self.query = query
    }

    public subscript(header name: String) -> String? { headers[name.lowercased()] }
}

/// Why an HTTP exchange failed.
public struct HTTPError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable { case refused, timedOut, idleTimeout, closed, malformed, failed, cancelled }
    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
