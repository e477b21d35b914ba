/// Why a plugin library could not be loaded or opened; the message names the file and the cause.
public struct PluginLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
