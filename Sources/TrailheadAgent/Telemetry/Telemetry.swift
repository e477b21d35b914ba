import Foundation
import Synchronization

/// Spans of a session's work for OpenTelemetry tools, following OpenTelemetry's GenAI semantic
/// conventions: a response is an `invoke_agent` span, each model turn under it a `chat` span
/// (model, token counts, finish reason), each tool call an `execute_tool` span. The spans go to an
/// `OTLPExporter`, which batches them off the caller's path.
///
///     var configuration = LanguageModelSession.Configuration()
///     configuration.telemetry = Telemetry.fromEnvironment()   // OTEL_EXPORTER_OTLP_ENDPOINT, …
///
/// A `Telemetry` is a place in a trace: `parent` is where the next span hangs (nil: a new trace).
public struct Telemetry: Sendable {
    public let exporter: OTLPExporter
    /// The span the next spans are children of; nil starts a new trace.
    public var parent: SpanContext?
    /// Attributes for the response's `invoke_agent` span (`gen_ai.agent.name`, a run's id…).
    public var attributes: [String: SpanAttribute]

    public init(exporter: OTLPExporter, parent: SpanContext? = nil, attributes: [String: SpanAttribute] = [:]) {
        self.exporter = exporter
        self.parent = parent
        self.attributes = attributes
    }

    /// From the standard OpenTelemetry environment variables (`OTEL_EXPORTER_OTLP_ENDPOINT`,
    /// `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, `OTEL_EXPORTER_OTLP_PROTOCOL`,
    /// `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_EXPORTER_OTLP_TIMEOUT`, `OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`); nil when no
    /// endpoint is set. One exporter per process: every call returns the same one.
    public static func fromEnvironment(resource: [String: SpanAttribute] = [:]) -> Telemetry? {
        OTLPExporter.fromEnvironment(resource: resource).map { Telemetry(exporter: $0) }
    }

    /// The process's telemetry from its environment, read once: every session's default.
    public static let process: Telemetry? = fromEnvironment()

    /// Starts a span under `parent`; it is exported when `end` is called.
    public func start(_ name: String, kind: SpanKind = .internal, attributes: [String: SpanAttribute] = [:], at start: Date = Date()) -> OpenSpan {
        let context = SpanContext(traceID: parent?.traceID ?? SpanContext.randomID(16), spanID: SpanContext.randomID(8))
        return OpenSpan(exporter: exporter, record: .init(
            context: context, parentSpanID: parent?.spanID, name: name, kind: kind, start: start, end: start, attributes: attributes))
    }

    /// A span that already happened (a model turn whose length the backend timed).
    public func record(_ name: String, kind: SpanKind = .internal, from start: Date, to end: Date, attributes: [String: SpanAttribute], error: String? = nil) {
        let span = self.start(name, kind: kind, attributes: attributes, at: start)
        span.end(at: end, error: error)
    }

    /// The same exporter, with the next spans under `span`.
    public func under(_ span: OpenSpan) -> Telemetry { Telemetry(exporter: exporter, parent: span.context, attributes: [:]) }
}

/// A trace and a span in it: W3C trace context's ids (16 and 8 random bytes).
public struct SpanContext: Sendable, Hashable {
    public var traceID: [UInt8]
    public var spanID: [UInt8]

    public init(traceID: [UInt8], spanID: [UInt8]) {
        self.traceID = traceID
        self.spanID = spanID
    }

    static func randomID(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
        if bytes.allSatisfy({ $0 == 0 }) { bytes[count - 1] = 1 }  // all zeros is the invalid id
        return bytes
    }
}

/// OTLP's span kinds (the numbers are the protocol's).
public enum SpanKind: Int, Sendable {
    case `internal` = 1, server = 2, client = 3
}

/// An attribute's value, as OTLP carries them.
public enum SpanAttribute: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case strings([String])

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
}

/// A started span; `end` records it (once: a second `end` does nothing).
public final class OpenSpan: Sendable {
    public let context: SpanContext
    private let exporter: OTLPExporter
    private let state: Mutex<(record: FinishedSpan, ended: Bool)>

    init(exporter: OTLPExporter, record: FinishedSpan) {
        self.context = record.context
        self.exporter = exporter
        self.state = Mutex((record, false))
    }

    public func set(_ name: String, _ value: SpanAttribute) { state.withLock { $0.record.attributes[name] = value } }

    /// Ends the span now (or `at`); `error` marks it failed with that message.
    public func end(at end: Date = Date(), error: String? = nil) {
        let finished: FinishedSpan? = state.withLock { state in
            guard !state.ended else { return nil }
            state.ended = true
            state.record.end = max(end, state.record.start)
            state.record.error = error
            return state.record
        }
        if let finished { exporter.enqueue(finished) }
    }
}

/// A span as the exporter sends it.
public struct FinishedSpan: Sendable, Hashable {
    public var context: SpanContext
    public var parentSpanID: [UInt8]?
    public var name: String
    public var kind: SpanKind
    public var start: Date
    public var end: Date
    public var attributes: [String: SpanAttribute]
    /// Set when the span's work failed (OTLP status `ERROR` with this message).
    public var error: String?
}
