import Foundation
import Synchronization
import TrailheadSupport

/// Trailhead's tools as one MCP server (`agent mcp serve`): the registry's tools, or those of
/// some plugins, over stdio or Streamable HTTP on 127.0.0.1. Arguments are validated and plugins
/// isolated and restarted as in `agent plan` (every call goes through the registry). The
/// manifests folder is watched: a plugin registered, changed or removed, or one quarantined or
/// let out, sends `notifications/tools/list_changed`.
public final class MCPToolServer: Sendable {
    /// Reported as `serverInfo.version`.
    public static let version = "0.1.0"

    private let registry: ToolRegistry
    private let source: RegistryToolSource
    private let watchInterval: Double
    private let running = Mutex(true)
    private let stdio = Mutex<MCPStdioTransport?>(nil)
    private let http = Mutex<(transport: MCPHTTPTransport, server: HTTPServer)?>(nil)

    /// - Parameters:
    ///   - plugins: plugin names whose tools to serve; `nil` serves all (and any registered later).
    ///   - watchInterval: how often the manifests folder is read again, in seconds.
    public init(registry: ToolRegistry, plugins: [String]? = nil, watchInterval: Double = 1) {
        self.registry = registry
        self.source = RegistryToolSource(registry: registry, plugins: plugins.map(Set.init))
        self.watchInterval = watchInterval
        registry.onToolsChanged { [weak self] in self?.toolsChanged() }
    }

    /// The tools served now, by name.
    public var toolNames: [String] { source.listedTools().map(\.name) }

    /// Serves MCP on this process's stdin and stdout until stdin closes. The real stdout is
    /// kept for the protocol and fd 1 pointed at stderr first, so nothing an in-process plugin
    /// prints can corrupt the protocol.
    public func serveStandardIO() throws(PluginLoadError) {
        guard let output = claimStandardOutput() else {
            throw PluginLoadError("cannot redirect stdout: \(String(cString: strerror(errno)))")
        }
        serveStdio(input: 0, output: output)
    }

    /// Serves MCP on `input`/`output` (newline-delimited JSON-RPC) until `input` closes.
    public func serveStdio(input: Int32, output: Int32) {
        let transport = MCPStdioTransport(source: source, output: output)
        stdio.withLock { $0 = transport }
        startWatching()
        transport.run(input: input)
        stop()
    }

    /// Listens on 127.0.0.1:`port` (0 picks one); `ready` gets the endpoint's URL; returns after `stop()`.
    public func serveHTTP(port: Int, ready: (String) -> Void) throws(HTTPError) {
        let transport = MCPHTTPTransport(source: source)
        let server = try HTTPServer(port: port) { transport.handle($0) }
        http.withLock { $0 = (transport, server) }
        startWatching()
        ready("http://127.0.0.1:\(server.port)\(MCPHTTPTransport.path)")
        server.run()
        transport.endAll()
    }

    /// Stops serving (an HTTP server stops listening; the watcher ends).
    public func stop() {
        running.withLock { $0 = false }
        http.withLock { $0?.server.stop() }
    }

    /// Reads the manifests folder again now (the watcher does it every `watchInterval`).
    @discardableResult
    public func refresh() -> Bool { registry.refresh() }

    private func toolsChanged() {
        stdio.withLock { $0 }?.notify("notifications/tools/list_changed")
        http.withLock { $0?.transport }?.notify("notifications/tools/list_changed")
    }

    private func startWatching() {
        let thread = Thread { [weak self] in
            while let self, self.running.withLock({ $0 }) {
                Thread.sleep(forTimeInterval: self.watchInterval)
                self.registry.refresh()
            }
        }
        thread.start()
    }
}
