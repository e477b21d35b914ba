/// Everything that can go wrong while building, importing into or querying a geodata index,
/// each with a message that names what failed and where.
public struct GeoIndexError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
