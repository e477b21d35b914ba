import Foundation
import TrailheadSchema

/// An `ExportTraceServiceRequest` (opentelemetry-proto's `collector/trace/v1`) for a batch of
/// spans: one resource, one instrumentation scope (`trailhead`), the spans. Two encodings, as
/// OTLP/HTTP allows: protobuf (written field by field here: no protobuf library) and OTLP/JSON
/// (lowerCamelCase names, hex trace and span ids, 64-bit integers as strings).
enum OTLPEncoding {
    static let scope = "trailhead"

    // MARK: - JSON

    static func json(_ spans: [FinishedSpan], resource: [String: SpanAttribute]) -> String {
        let request: GeneratedContent = [
            "resourceSpans": [[
                "resource": ["attributes": .array(keyValues(resource))],
                "scopeSpans": [["scope": ["name": .string(scope)], "spans": .array(spans.map(json))]],
            ]],
        ]
        return request.jsonString
    }

    private static func json(_ span: FinishedSpan) -> GeneratedContent {
        var object: JSONObject = [
            "traceId": .string(hex(span.context.traceID)), "spanId": .string(hex(span.context.spanID)), "name": .string(span.name),
            "kind": .number(Double(span.kind.rawValue)), "startTimeUnixNano": .string(String(nanoseconds(span.start))),
            "endTimeUnixNano": .string(String(nanoseconds(span.end))), "attributes": .array(keyValues(span.attributes)),
            "status": span.error.map { ["code": 2, "message": .string($0)] } ?? ["code": 1],
        ]
        if let parent = span.parentSpanID { object["parentSpanId"] = .string(hex(parent)) }
        return .object(object)
    }

    private static func keyValues(_ attributes: [String: SpanAttribute]) -> [GeneratedContent] {
        attributes.sorted { $0.key < $1.key }.map { ["key": .string($0.key), "value": anyValue($0.value)] }
    }

    private static func anyValue(_ value: SpanAttribute) -> GeneratedContent {
        switch value {
        case .string(let text): ["stringValue": .string(text)]
        case .int(let number): ["intValue": .string(String(number))]
        case .double(let number): ["doubleValue": .number(number)]
        case .bool(let flag): ["boolValue": .bool(flag)]
        case .strings(let texts): ["arrayValue": ["values": .array(texts.map { ["stringValue": .string($0)] })]]
        }
    }

    // MARK: - Protobuf

    static func protobuf(_ spans: [FinishedSpan], resource: [String: SpanAttribute]) -> [UInt8] {
        var resourceMessage = Protobuf()
        for pair in resource.sorted(by: { $0.key < $1.key }) { resourceMessage.message(1, keyValue(pair.key, pair.value)) }
        var scopeMessage = Protobuf()
        scopeMessage.string(1, scope)
        var scopeSpans = Protobuf()
        scopeSpans.message(1, scopeMessage)
        for span in spans { scopeSpans.message(2, protobuf(span)) }
        var resourceSpans = Protobuf()
        resourceSpans.message(1, resourceMessage)
        resourceSpans.message(2, scopeSpans)
        var request = Protobuf()
        request.message(1, resourceSpans)
        return request.bytes
    }

    private static func protobuf(_ span: FinishedSpan) -> Protobuf {
        var message = Protobuf()
        message.bytes(1, span.context.traceID)
        message.bytes(2, span.context.spanID)
        if let parent = span.parentSpanID { message.bytes(4, parent) }
        message.string(5, span.name)
        message.varint(6, UInt64(span.kind.rawValue))
        message.fixed64(7, nanoseconds(span.start))
        message.fixed64(8, nanoseconds(span.end))
        for pair in span.attributes.sorted(by: { $0.key < $1.key }) { message.message(9, keyValue(pair.key, pair.value)) }
        var status = Protobuf()
        if let error = span.error { status.string(2, error) }
        status.varint(3, span.error == nil ? 1 : 2)
        message.message(15, status)
        return message
    }

    private static func keyValue(_ key: String, _ value: SpanAttribute) -> Protobuf {
        var pair = Protobuf()
        pair.string(1, key)
        pair.message(2, anyValueMessage(value))
        return pair
    }

    private static func anyValueMessage(_ value: SpanAttribute) -> Protobuf {
        var message = Protobuf()
        switch value {
        case .string(let text): message.string(1, text)
        case .bool(let flag): message.varint(2, flag ? 1 : 0)
        case .int(let number): message.varint(3, UInt64(bitPattern: Int64(number)))
        case .double(let number): message.fixed64(4, number.bitPattern)
        case .strings(let texts):
            var array = Protobuf()
            for text in texts { array.message(1, anyValueMessage(.string(text))) }
            message.message(5, array)
        }
        return message
    }

    // MARK: - Pieces

    static func nanoseconds(_ date: Date) -> UInt64 { UInt64(max(0, date.timeIntervalSince1970 * 1e9).rounded()) }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
    }
}

/// Protocol buffers' wire format, the four kinds OTLP's spans need (varint, 64-bit, length-delimited).
struct Protobuf {
    private(set) var bytes: [UInt8] = []

    mutating func varint(_ field: Int, _ value: UInt64) {
        tag(field, 0)
        append(varint: value)
    }

    mutating func fixed64(_ field: Int, _ value: UInt64) {
        tag(field, 1)
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    mutating func bytes(_ field: Int, _ value: [UInt8]) {
        tag(field, 2)
        append(varint: UInt64(value.count))
        bytes += value
    }

    mutating func string(_ field: Int, _ value: String) { bytes(field, Array(value.utf8)) }

    mutating func message(_ field: Int, _ value: Protobuf) { bytes(field, value.bytes) }

    private mutating func tag(_ field: Int, _ wireType: UInt64) { append(varint: UInt64(field) << 3 | wireType) }

    private mutating func append(varint value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7f) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }
}
