import Foundation

/// Decodes `Decodable` values straight from `GeneratedContent`, without a round trip through
/// JSON text. Errors are the standard `DecodingError`s, with the coding path of the value.
public struct GeneratedContentDecoder: Sendable {
    /// Optional members that do not decode are nil instead of an error: for snapshots of a value
    /// still being generated (an enum cut mid-word).
    public var lenient: Bool

    public init(lenient: Bool = false) { self.lenient = lenient }

    public func decode<T: Decodable>(_ type: T.Type, from content: GeneratedContent) throws -> T {
        try unbox(content, as: type, codingPath: [], lenient: lenient)
    }
}

private func mismatch<T>(_ type: T.Type, _ content: GeneratedContent, _ path: [any CodingKey]) -> DecodingError {
    .typeMismatch(type, .init(codingPath: path, debugDescription: "expected \(type), got \(Describe.brief(content))"))
}

private func integer<I: BinaryInteger>(_ type: I.Type, _ d: Double) -> I? { I(exactly: d) }

/// One value as `T`: scalars directly, `GeneratedContent` as is (keeping key order), others
/// through their `init(from:)`.
private func unbox<T: Decodable>(_ content: GeneratedContent, as type: T.Type, codingPath: [any CodingKey], lenient: Bool) throws -> T {
    if type == GeneratedContent.self { return content as! T }
    switch (content, type) {
    case (.bool(let b), is Bool.Type): return b as! T
    case (.string(let s), is String.Type): return s as! T
    case (.number(let d), is Double.Type): return d as! T
    case (.number(let d), is Float.Type): return Float(d) as! T
    case (.string(let s), is URL.Type):
        guard let url = URL(string: s) else { throw mismatch(type, content, codingPath) }
        return url as! T
    case (.number(let d), is Decimal.Type): return Decimal(string: GeneratedContent.format(d))! as! T
    case (.number(let d), let intType as any BinaryInteger.Type):
        guard let value = integer(intType, d) else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "\(GeneratedContent.format(d)) does not fit in \(type)"))
        }
        return value as! T
    case (_, is Bool.Type), (_, is String.Type), (_, is Double.Type), (_, is Float.Type), (_, is any BinaryInteger.Type):
        throw mismatch(type, content, codingPath)
    default:
        return try T(from: ContentDecoder(content: content, codingPath: codingPath, lenient: lenient))
    }
}

private struct ContentDecoder: Decoder {
    let content: GeneratedContent
    let codingPath: [any CodingKey]
    let lenient: Bool
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = content else { throw mismatch([String: GeneratedContent].self, content, codingPath) }
        return KeyedDecodingContainer(KeyedContainer<Key>(members: members, codingPath: codingPath, lenient: lenient))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = content else { throw mismatch([GeneratedContent].self, content, codingPath) }
        return UnkeyedContainer(elements: elements, codingPath: codingPath, lenient: lenient)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(content: content, codingPath: codingPath, lenient: lenient)
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: JSONObject
    let codingPath: [any CodingKey]
    let lenient: Bool

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }
    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func value(_ key: Key) throws -> GeneratedContent {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing property \"\(key.stringValue)\""))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try value(key).isNull }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try unbox(try value(key), as: type, codingPath: codingPath + [key], lenient: lenient)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = members[key.stringValue], !value.isNull else { return nil }
        guard lenient else { return try unbox(value, as: type, codingPath: codingPath + [key], lenient: false) }
        return try? unbox(value, as: type, codingPath: codingPath + [key], lenient: true)
    }

    // The standard library's own versions for these types would throw where a lenient decoder gives nil.
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

    private func optional<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? { try decodeIfPresent(type, forKey: key) as T? }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try ContentDecoder(content: try value(key), codingPath: codingPath + [key], lenient: lenient).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ContentDecoder(content: try value(key), codingPath: codingPath + [key], lenient: lenient).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ContentDecoder(content: members["super"] ?? .null, codingPath: codingPath, lenient: lenient)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ContentDecoder(content: try value(key), codingPath: codingPath + [key], lenient: lenient)
    }
}

private struct IndexKey: CodingKey {
    var stringValue: String { String(intValue!) }
    var intValue: Int?
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [GeneratedContent]
    let codingPath: [any CodingKey]
    let lenient: Bool
    var currentIndex = 0
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next() throws -> (GeneratedContent, [any CodingKey]) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(GeneratedContent.self, .init(codingPath: codingPath + [IndexKey(currentIndex)], debugDescription: "the array has only \(elements.count) elements"))
        }
        defer { currentIndex += 1 }
        return (elements[currentIndex], codingPath + [IndexKey(currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex].isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (element, path) = try next()
        return try unbox(element, as: type, codingPath: path, lenient: lenient)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (element, path) = try next()
        return try ContentDecoder(content: element, codingPath: path, lenient: lenient).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (element, path) = try next()
        return try ContentDecoder(content: element, codingPath: path, lenient: lenient).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (element, path) = try next()
        return ContentDecoder(content: element, codingPath: path, lenient: lenient)
    }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
    let content: GeneratedContent
    let codingPath: [any CodingKey]
    let lenient: Bool

    func decodeNil() -> Bool { content.isNull }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try unbox(content, as: type, codingPath: codingPath, lenient: lenient)
    }
}
