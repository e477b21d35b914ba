/// Why a manifest could not be read: the field's JSON pointer and what is wrong with it.
public struct ManifestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// JSON pointer of the offending field (`/tools/0/binding/parameters/1/type`); empty for the root.
    public var pointer: String
    public var message: String

    public init(pointer: String, message: String) {
        self.pointer = pointer
        self.message = message
    }

    public var description: String { "\(pointer.isEmpty ? "/" : pointer): \(message)" }
}
