import Synchronization

/// A value of `Value` still being generated, read through `Value`'s own members: each member is
/// there once it has arrived (strings may still grow, arrays hold the items begun so far), typed
/// and checked by the compiler:
///
///     for try await snapshot in stream {
///         let title: String? = snapshot.content.days?.first?.title
///     }
///
/// A `Generable` member reads as its own partial (`Partial<DayPlan>`), an array of them as an array
/// of partials, any other member as its type, or nil while it cannot be decoded yet: an enum cut
/// mid-word (`"foodAn"`) is nil until its last letter arrives, and never costs the snapshot. Each
/// partial's `id` is where it is in the answer (`/days/0`), so an item keeps its identity while the
/// stream appends to the array (what a list view needs). The default `Generable.PartiallyGenerated`.
///
/// Members can be set too, which fills in a value member by member with the compiler checking
/// each name (`itinerary.days = [day]`; nil removes a member).
@dynamicMemberLookup
public struct Partial<Value: Generable>: Sendable, Hashable, Identifiable, Decodable {
    /// What has arrived of the value (an object of its members).
    public private(set) var content: GeneratedContent
    /// Where the value is in the answer, as a JSON pointer ("" for the answer itself).
    public let id: String

    public init(_ content: GeneratedContent, id: String = "") {
        self.content = content
        self.id = id
    }

    /// No member yet: a value to fill in member by member (`itinerary.title = "Desert Days"`).
    public init() { self.init([:]) }

    public init(from decoder: any Decoder) throws {
        content = try GeneratedContent(from: decoder)
        id = JSONPointer.make(decoder.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue })
    }

    /// The value, once what has arrived is a whole valid one.
    public var complete: Value? { try? Value(content) }

    // MARK: - Members
    //
    // Each member reads as nil until it has arrived (or while it cannot decode), and setting nil
    // removes it.

    /// A member that is itself generable: its partial (for `String`, the text so far).
    public subscript<Member: Generable>(dynamicMember member: KeyPath<Value, Member>) -> Member.PartiallyGenerated? {
        get { self[member: member].flatMap { Member.partiallyGenerated(from: $0.content, id: $0.id) } }
        set { self[member: member] = newValue.map(Self.json) }
    }

    public subscript<Member: Generable>(dynamicMember member: KeyPath<Value, Member?>) -> Member.PartiallyGenerated? {
        get { self[member: member].flatMap { $0.content.isNull ? nil : Member.partiallyGenerated(from: $0.content, id: $0.id) } }
        set { self[member: member] = newValue.map(Self.json) }
    }

    /// An array of generable items: the partial of each item begun so far.
    public subscript<Element: Generable>(dynamicMember member: KeyPath<Value, [Element]>) -> [Element.PartiallyGenerated]? {
        get { self[member: member].flatMap { Self.items(Element.self, $0) } }
        set { self[member: member] = newValue.map { .array($0.map(Self.json)) } }
    }

    public subscript<Element: Generable>(dynamicMember member: KeyPath<Value, [Element]?>) -> [Element.PartiallyGenerated]? {
        get { self[member: member].flatMap { Self.items(Element.self, $0) } }
        set { self[member: member] = newValue.map { .array($0.map(Self.json)) } }
    }

    /// Any other member (a number, an enum, an array of them): its value once it decodes.
    public subscript<Member: Codable>(dynamicMember member: KeyPath<Value, Member>) -> Member? {
        get { self[member: member].flatMap { try? $0.content.decode(as: Member.self) } }
        set { self[member: member] = newValue.map(Self.json) }
    }

    public subscript<Member: Codable>(dynamicMember member: KeyPath<Value, Member?>) -> Member? {
        get { self[member: member].flatMap { try? $0.content.decode(as: Member.self) } }
        set { self[member: member] = newValue.map(Self.json) }
    }

    /// The JSON of the member named by `member`, and its id.
    private subscript(member member: AnyKeyPath) -> (content: GeneratedContent, id: String)? {
        let key = PartialMembers.key(of: member, in: Value.self)
        guard let value = content[key] else { return nil }
        return (value, id + "/" + JSONPointer.escape(key))
    }

    /// Sets (or, with nil, removes) the member named by `member`.
    private subscript(member member: AnyKeyPath) -> GeneratedContent? {
        get { content[PartialMembers.key(of: member, in: Value.self)] }
        set {
            var members = content.objectValue ?? [:]
            members[PartialMembers.key(of: member, in: Value.self)] = newValue
            content = .object(members)
        }
    }

    private static func items<Element: Generable>(_ type: Element.Type, _ array: (content: GeneratedContent, id: String)) -> [Element.PartiallyGenerated]? {
        guard let items = array.content.arrayValue else { return nil }
        return items.enumerated().compactMap { index, item in Element.partiallyGenerated(from: item, id: array.id + "/" + String(index)) }
    }

    /// The JSON of a member's value: a partial's content, or the value encoded.
    private static func json(_ value: Any) -> GeneratedContent {
        if let partial = value as? any PartialView { return partial.content }
        if let content = value as? GeneratedContent { return content }
        if let encodable = value as? any Encodable, let content = try? GeneratedContent(encoding: encodable) { return content }
        preconditionFailure("\(type(of: value)) cannot be written into a Partial: it is neither a Partial nor Encodable")
    }
}

/// What `Generable` types streamed before `Partial`: the same view.
public typealias PartiallyGeneratedContent<Value: Generable> = Partial<Value>

extension Generable {
    /// A snapshot of a value still being generated as this type's `PartiallyGenerated`: a
    /// `Partial` always; a view written by hand decoded leniently (a member that does not decode
    /// yet is nil, not the end of the snapshot), nil only when the content is not even an object of it.
    public static func partiallyGenerated(from content: GeneratedContent, id: String = "") -> PartiallyGenerated? {
        if let partial = PartiallyGenerated.self as? any PartialView.Type { return partial.init(content, id: id) as? PartiallyGenerated }
        if PartiallyGenerated.self == GeneratedContent.self { return content as? PartiallyGenerated }
        return try? GeneratedContentDecoder(lenient: true).decode(PartiallyGenerated.self, from: content)
    }
}

/// `Partial`, whatever its value type.
protocol PartialView {
    init(_ content: GeneratedContent, id: String)
    var content: GeneratedContent { get }
}

extension Partial: PartialView {}

/// Which JSON member a key path names: the property's name (read from the key path), mapped to
/// its coding key when the two differ. Learned once per key path.
enum PartialMembers {
    /// A key path as a dictionary key (key paths are immutable, so sharing them is safe).
    private struct Path: @unchecked Sendable, Hashable { let path: AnyKeyPath }

    private static let keys = Mutex<[Path: String]>([:])

    static func key<Value: Generable>(of member: AnyKeyPath, in type: Value.Type) -> String {
        if let key = keys.withLock({ $0[Path(path: member)] }) { return key }
        // "\Itinerary.days" names the property `days`.
        let name = String(String(reflecting: member).split(separator: ".").last ?? "")
        let key = codingKeys(of: type)[name] ?? name
        keys.withLock { $0[Path(path: member)] = key }
        return key
    }

    /// Property name → coding key, for the properties whose coding key is another name.
    private static func codingKeys<Value: Generable>(of type: Value.Type) -> [String: String] {
        guard let (value, keys) = SchemaRecorder.placeholder(of: type) else { return [:] }
        let names = Mirror(reflecting: value).children.compactMap { $0.label.map { $0.hasPrefix("_") ? String($0.dropFirst()) : $0 } }
        // Synthesized Codable decodes the properties in declaration order: the properties not
        // named by a key pair with the keys not named by a property, in that order.
        let unnamed = names.filter { !keys.contains($0) }
        let unmatched = keys.filter { !names.contains($0) }
        return Dictionary(zip(unnamed, unmatched).map { ($0, $1) }, uniquingKeysWith: { first, _ in first })
    }
}
