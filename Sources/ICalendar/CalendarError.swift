/// A calendar problem a person (or a model) can act on: what went wrong and where.
public struct CalendarError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
