import Foundation

/// The bridge between `GeneratedContent` and typed Swift values.
extension GeneratedContent: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let b = try? container.decode(Bool.self) { self = .bool(b) }
        else if let n = try? container.decode(Double.self) { self = .number(n) }
        else if let s = try? container.decode(String.self) { self = .string(s) }
        else if let a = try? container.decode([GeneratedContent].self) { self = .array(a) }
        else if let o = try? container.decode([String: GeneratedContent].self) {
            self = .object(JSONObject(o.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        if case .object(let o) = self {
            // A keyed container in member order: encoders that keep order (ours) keep it.
            var keyed = encoder.container(keyedBy: MemberKey.self)
            for (key, value) in o { try keyed.encode(value, forKey: MemberKey(stringValue: key)) }
            return
        }
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .number(let n): try container.encode(n)
        case .string(let s): try container.encode(s)
        case .array(let a): try container.encode(a)
        case .object: break  // written above
        }
    }
}

private struct MemberKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension GeneratedContent {
    /// The content of an `Encodable` value, keys in the order the value encodes them (for
    /// synthesized `Codable`, the order the properties are declared in).
    public init(encoding value: some Encodable) throws {
        self = try GeneratedContentEncoder().encode(value)
    }

    /// A typed value decoded from this content (no round trip through JSON text).
    public func decode<T: Decodable>(as type: T.Type = T.self) throws -> T {
        try GeneratedContentDecoder().decode(T.self, from: self)
    }
}

/// A JSON object as a Swift value: members in order.
extension JSONObject: Codable {
    public init(from decoder: any Decoder) throws {
        let content = try decoder.singleValueContainer().decode(GeneratedContent.self)
        guard case .object(let members) = content else {
            throw DecodingError.typeMismatch(JSONObject.self, .init(codingPath: decoder.codingPath, debugDescription: "expected an object, got \(content.typeName)"))
        }
        self = members
    }

    public func encode(to encoder: any Encoder) throws { try GeneratedContent.object(self).encode(to: encoder) }
}
