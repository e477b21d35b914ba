/// Why a BFCL evaluation cannot go on: the worker is missing or stopped, or a case cannot be
/// loaded. `agent eval --bfcl` reports its message as its own.
public struct BFCLError: Error, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
