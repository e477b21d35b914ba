/// A value of `Value` still being generated: the members that have arrived so far (strings may
/// be cut mid-way, arrays hold their finished elements, missing members are absent). The default
/// `Generable.PartiallyGenerated`; read members by name (`snapshot.title?.stringValue`) or try
/// the whole value with `complete`.
@dynamicMemberLookup
public struct PartiallyGeneratedContent<Value: Generable>: Decodable, Sendable, Equatable {
    public var content: GeneratedContent

    public init(_ content: GeneratedContent) { self.content = content }

    public init(from decoder: any Decoder) throws { content = try GeneratedContent(from: decoder) }

    /// A member that has arrived, or nil.
    public subscript(dynamicMember name: String) -> GeneratedContent? { content[name] }

    /// The value, once what has arrived is a whole valid one.
    public var complete: Value? { try? Value(content) }
}
