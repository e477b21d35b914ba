/// What one type's `init(from:)` asked for: its members in order (an object), or the one value it
/// decodes itself from (a single-value container).
final class NodeCollector {
    let owner: String
    let guides: GuideTable
    unowned let recorder: SchemaRecorder
    private var properties = JSONObject()
    private var required: [String] = []
    private var single: JSONObject?
    private var keyed = false
    /// Set when the type asked which keys are present: an enum with associated values, a dictionary.
    private(set) var askedForKeys = false
    private var lastMember: String?
    /// Every member asked for, in order (in either mode).
    private(set) var askedKeys: [String] = []
    /// Members probed with `decodeNil(forKey:)` (the default `decodeIfPresent`): optional.
    private var probedNil: Set<String> = []
    private var nested: [(key: String, collector: NodeCollector)] = []

    init(owner: String, guides: GuideTable, recorder: SchemaRecorder) {
        self.owner = owner
        self.guides = guides
        self.recorder = recorder
    }

    private func site(_ key: String) -> SchemaRecorder.Site { .init(owner: owner, member: key) }

    func openedKeyed() { keyed = true }

    func askedWhichKeys() { askedForKeys = true }

    func probedNil(_ key: String) { probedNil.insert(key) }

    /// A member the type needs: a placeholder for it, its schema recorded.
    func member<T: Decodable>(_ key: String, _ type: T.Type, optional: Bool = false) throws -> T {
        lastMember = key
        askedKeys.append(key)
        let site = site(key)
        guard recorder.mode == .describe else { return try recorder.make(type, at: site).value }
        let guides = guides.guides(for: key)
        let value: T, node: JSONObject
        if let rule = Self.rule(in: guides) {
            value = try recorder.placeholder(type, at: site)
            node = rule
        } else {
            (value, node) = try recorder.make(type, at: site)
        }
        try add(key, node, guides, optional: optional || probedNil.contains(key))
        return value
    }

    /// A member the type may go without (`decodeIfPresent`): its schema only, no value.
    func optionalMember(_ key: String, _ type: any Decodable.Type) throws {
        lastMember = key
        askedKeys.append(key)
        guard recorder.mode == .describe else { return }
        let guides = guides.guides(for: key)
        let node = try Self.rule(in: guides) ?? recorder.describe(type, at: site(key))
        try add(key, node, guides, optional: true)
    }

    /// The value a single-value type decodes itself from (a wrapper around a string, say).
    func singleValue<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, node) = try recorder.make(type, at: site(""))
        if single == nil { single = node }
        return value
    }

    /// A nested object the type decodes inline (`nestedContainer(keyedBy:forKey:)`).
    func nestedObject(_ key: String) -> NodeCollector {
        lastMember = key
        askedKeys.append(key)
        let collector = NodeCollector(owner: "\(owner).\(key)", guides: GuideTable(), recorder: recorder)
        nested.append((key, collector))
        return collector
    }

    private func add(_ key: String, _ node: JSONObject, _ guides: [Guide], optional: Bool) throws {
        let guided = try GuideApplication(site: site(key), recorder: recorder).apply(guides, to: node)
        properties[key] = .object(guided)
        if !optional, !required.contains(key) { required.append(key) }
    }

    private static func rule(in guides: [Guide]) -> JSONObject? {
        for guide in guides { if case .schema(let builder) = guide.kind { return builder.json } }
        return nil
    }

    /// The schema of what the type asked for.
    func node(at site: SchemaRecorder.Site) throws -> JSONObject {
        if let single, !keyed {
            guard guides.entries.isEmpty else {
                throw recorder.refuse(site, "\(owner) decodes itself from one value, so its guides have no member to go to")
            }
            return single
        }
        for (key, collector) in nested {
            properties[key] = .object(try collector.node(at: self.site(key)))
            if !required.contains(key) { required.append(key) }
        }
        for key in guides.keys where properties[key] == nil {
            throw recorder.refuse(self.site(key), "has a guide, but \(owner)'s init(from:) never decodes it")
        }
        return [
            "type": "object", "properties": .object(properties), "required": .array(required.map { .string($0) }),
            "additionalProperties": false,
        ]
    }

    /// Why the type's `init(from:)` threw on the recording decoder.
    func refusalReason(for error: any Error) -> String {
        if askedForKeys {
            return "\(owner) decodes itself from whichever keys are present (an enum with associated values, or a "
                + "dictionary), so its schema cannot be recorded: give the member a .schema(…) guide"
        }
        let at = lastMember.map { " after member \"\($0)\"" } ?? ""
        return "\(owner)'s init(from:) refused the placeholder values its schema is recorded with\(at) (\(error)): "
            + "give the member a .schema(…) guide"
    }
}

/// The decoder a type's `init(from:)` is called with while its schema is recorded.
struct RecordingDecoder: Decoder {
    let collector: NodeCollector
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        collector.openedKeyed()
        return KeyedDecodingContainer(KeyedRecorder<Key>(collector: collector))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard collector.recorder.mode == .placeholder else {
            throw collector.recorder.refuse(
                .init(owner: collector.owner, member: ""),
                "\(collector.owner) decodes itself from an array of values, which is not recorded: give the member a .schema(…) guide")
        }
        return EmptyUnkeyedRecorder()
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValueRecorder(collector: collector) }
}

private struct KeyedRecorder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let collector: NodeCollector
    var codingPath: [any CodingKey] { [] }

    var allKeys: [Key] {
        collector.askedWhichKeys()
        return []
    }

    func contains(_ key: Key) -> Bool { true }

    func decodeNil(forKey key: Key) throws -> Bool {
        collector.probedNil(key.stringValue)
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try collector.member(key.stringValue, type)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try collector.optionalMember(key.stringValue, type)
        return nil
    }

    // The standard library's own `decodeIfPresent` for these types decodes a value; these record
    // the member as optional instead.
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optional(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optional(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try optional(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optional(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try optional(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try optional(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try optional(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try optional(type, key) }

    private func optional<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        try collector.optionalMember(key.stringValue, type)
        return nil
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        let nested = collector.nestedObject(key.stringValue)
        nested.openedKeyed()
        return KeyedDecodingContainer(KeyedRecorder<NestedKey>(collector: nested))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw unsupported(key, "decodes member \"\(key.stringValue)\" item by item")
    }

    func superDecoder() throws -> any Decoder { throw unsupported(nil, "decodes a superclass") }

    func superDecoder(forKey key: Key) throws -> any Decoder { throw unsupported(key, "decodes a superclass") }

    private func unsupported(_ key: Key?, _ what: String) -> any Error {
        guard collector.recorder.mode == .describe else { return SchemaRecorder.Abort() }
        return collector.recorder.refuse(
            .init(owner: collector.owner, member: key?.stringValue ?? ""),
            "\(collector.owner) \(what), which is not recorded: give the member a .schema(…) guide")
    }
}

private struct SingleValueRecorder: SingleValueDecodingContainer {
    let collector: NodeCollector
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try collector.singleValue(type) }
}

/// An empty array, for a value made in placeholder mode.
private struct EmptyUnkeyedRecorder: UnkeyedDecodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count: Int? { 0 }
    var isAtEnd: Bool { true }
    var currentIndex: Int { 0 }

    mutating func decodeNil() throws -> Bool { false }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { throw SchemaRecorder.Abort() }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        throw SchemaRecorder.Abort()
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { throw SchemaRecorder.Abort() }
    mutating func superDecoder() throws -> any Decoder { throw SchemaRecorder.Abort() }
}
