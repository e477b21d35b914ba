import Foundation

/// Encodes `Encodable` values straight into `GeneratedContent`, keeping object keys in the
/// order the value encodes them (for synthesized `Codable`, the order of declaration).
/// Foundation's `JSONEncoder` does not keep that order, and a model reading an example or a
/// transcript benefits from seeing fields in the order the type declares them.
public struct GeneratedContentEncoder: Sendable {
    public init() {}

    public func encode(_ value: some Encodable) throws -> GeneratedContent {
        let root = EncodingNode()
        try root.encode(value, codingPath: [])
        return try root.content(codingPath: [])
    }
}

/// A value under construction; containers hand out child nodes that are filled in later.
final class EncodingNode {
    enum Kind {
        case empty
        case value(GeneratedContent)
        case object(keys: [String], members: [String: EncodingNode])
        case array([EncodingNode])
    }

    var kind = Kind.empty

    func encode(_ value: some Encodable, codingPath: [any CodingKey]) throws {
        switch value {
        case let content as GeneratedContent: kind = .value(content)
        case let url as URL: kind = .value(.string(url.absoluteString))
        case let decimal as Decimal: kind = .value(.number(NSDecimalNumber(decimal: decimal).doubleValue))
        default: try value.encode(to: ContentEncoder(node: self, codingPath: codingPath))
        }
    }

    func member(_ key: String) -> EncodingNode {
        var (keys, members) = (keys: [String](), members: [String: EncodingNode]())
        if case .object(let k, let m) = kind { (keys, members) = (k, m) }
        if let existing = members[key] { return existing }
        let child = EncodingNode()
        keys.append(key)
        members[key] = child
        kind = .object(keys: keys, members: members)
        return child
    }

    func appendElement() -> EncodingNode {
        var elements: [EncodingNode] = []
        if case .array(let e) = kind { elements = e }
        let child = EncodingNode()
        elements.append(child)
        kind = .array(elements)
        return child
    }

    func content(codingPath: [any CodingKey]) throws -> GeneratedContent {
        switch kind {
        case .empty: return .object(JSONObject())  // a keyed container with nothing in it
        case .value(let v): return v
        case .array(let elements):
            return .array(try elements.map { try $0.content(codingPath: codingPath) })
        case .object(let keys, let members):
            var object = JSONObject()
            for key in keys { object[key] = try members[key]!.content(codingPath: codingPath) }
            return .object(object)
        }
    }
}

private struct ContentEncoder: Encoder {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.kind {} else { node.kind = .object(keys: [], members: [:]) }
        return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.kind {} else { node.kind = .array([]) }
        return UnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(node: node, codingPath: codingPath)
    }
}

/// Scalars as `GeneratedContent`; non-finite numbers cannot be JSON and are refused.
private func scalar(_ value: Any, codingPath: [any CodingKey]) throws -> GeneratedContent? {
    func number(_ d: Double) throws -> GeneratedContent {
        guard d.isFinite else {
            throw EncodingError.invalidValue(d, .init(codingPath: codingPath, debugDescription: "JSON cannot represent \(d)"))
        }
        return .number(d)
    }
    switch value {
    case let v as Bool: return .bool(v)
    case let v as String: return .string(v)
    case let v as Double: return try number(v)
    case let v as Float: return try number(Double("\(v)") ?? Double(v))  // 0.1 as written, not 0.100000001
    case let v as any BinaryInteger: return .number(Double(v))
    default: return nil
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { node.member(key.stringValue).kind = .value(.null) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let path = codingPath + [key]
        let child = node.member(key.stringValue)
        if let s = try scalar(value, codingPath: path) { child.kind = .value(s) } else { try child.encode(value, codingPath: path) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        ContentEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        ContentEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        ContentEncoder(node: node.member("super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        ContentEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
    }
}

private struct IndexKey: CodingKey {
    var stringValue: String { String(intValue!) }
    var intValue: Int?
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var count: Int { if case .array(let e) = node.kind { e.count } else { 0 } }

    mutating func encodeNil() throws { node.appendElement().kind = .value(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = codingPath + [IndexKey(count)]
        let child = node.appendElement()
        if let s = try scalar(value, codingPath: path) { child.kind = .value(s) } else { try child.encode(value, codingPath: path) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = codingPath + [IndexKey(count)]
        return ContentEncoder(node: node.appendElement(), codingPath: path).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = codingPath + [IndexKey(count)]
        return ContentEncoder(node: node.appendElement(), codingPath: path).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let path = codingPath + [IndexKey(count)]
        return ContentEncoder(node: node.appendElement(), codingPath: path)
    }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.kind = .value(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if let s = try scalar(value, codingPath: codingPath) { node.kind = .value(s) } else { try node.encode(value, codingPath: codingPath) }
    }
}
