import Foundation
import Synchronization
import TrailheadSupport

/// Sends finished spans to an OTLP/HTTP endpoint (`…/v1/traces`), batched, from a thread of its
/// own: `enqueue` only appends to a bounded queue, so a slow or absent collector never slows a
/// run. A full queue drops the newest spans and counts them; a batch the endpoint refuses or
/// cannot take in time is dropped and counted too (OTLP's retryable statuses, 429 and 503, are
/// tried once more after a second). The counts are in `statistics`.
public final class OTLPExporter: Sendable {
    public enum Encoding: String, Sendable {
        /// `application/json` (OTLP/JSON: hex ids, integers as strings).
        case json = "http/json"
        /// `application/x-protobuf`, OTLP's default.
        case protobuf = "http/protobuf"
    }

    public struct Statistics: Sendable, Equatable {
        public var exported = 0
        public var dropped = 0
        public var failedBatches = 0
        public var lastError: String?
    }

    public let endpoint: String
    public let encoding: Encoding
    public let headers: [String: String]
    /// The resource every span belongs to (`service.name`, `service.instance.id`, …).
    public let resource: [String: SpanAttribute]
    let maximumQueue: Int
    let batchSize: Int
    let interval: Double
    /// Seconds a batch may take to send (OTLP's `OTEL_EXPORTER_OTLP_TIMEOUT`, 10 s by default).
    let timeout: Double

    private struct State {
        var queue: [FinishedSpan] = []
        var statistics = Statistics()
        var sending = false
        var started = false
    }
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)

    public init(
        endpoint: String, encoding: Encoding = .protobuf, headers: [String: String] = [:], resource: [String: SpanAttribute] = [:],
        maximumQueue: Int = 2048, batchSize: Int = 256, interval: Double = 1, timeout: Double = 10
    ) {
        self.endpoint = endpoint
        self.encoding = encoding
        self.headers = headers
        var resource = resource
        if resource["service.name"] == nil { resource["service.name"] = "trailhead" }
        if resource["service.instance.id"] == nil { resource["service.instance.id"] = .string("\(ProcessInfo.processInfo.hostName):\(getpid())") }
        self.resource = resource
        self.maximumQueue = maximumQueue
        self.batchSize = batchSize
        self.interval = interval
        self.timeout = timeout
    }

    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// The spans waiting for the next batch (for tests).
    var queuedSpans: [FinishedSpan] { state.withLock { $0.queue } }

    /// Queues `span` for the next batch; never blocks on the network.
    public func enqueue(_ span: FinishedSpan) {
        let (start, full) = state.withLock { state -> (Bool, Bool) in
            let start = !state.started
            state.started = true
            guard state.queue.count < maximumQueue else {
                state.statistics.dropped += 1
                return (start, false)
            }
            state.queue.append(span)
            return (start, state.queue.count >= batchSize)
        }
        if start {
            let thread = Thread { [self] in sendLoop() }
            thread.name = "otlp-exporter"
            thread.start()
        }
        if full { wake.signal() }
    }

    /// Sends what is queued now, waiting at most `timeout` seconds (a process about to exit).
    public func flush(timeout: Double = 5) {
        let deadline = monotonicSeconds() + timeout
        wake.signal()
        while monotonicSeconds() < deadline, state.withLock({ !$0.queue.isEmpty || $0.sending }) {
            wake.signal()
            usleep(20_000)
        }
    }

    private func sendLoop() {
        while true {
            _ = wake.wait(timeout: .now() + interval)
            while let batch = takeBatch() {
                send(batch)
                state.withLock { $0.sending = false }
            }
        }
    }

    private func takeBatch() -> [FinishedSpan]? {
        state.withLock { state in
            guard !state.queue.isEmpty else { return nil }
            let batch = Array(state.queue.prefix(batchSize))
            state.queue.removeFirst(batch.count)
            state.sending = true
            return batch
        }
    }

    private func send(_ batch: [FinishedSpan]) {
        let body: [UInt8]
        let type: String
        switch encoding {
        case .json: (body, type) = (Array(OTLPEncoding.json(batch, resource: resource).utf8), "application/json")
        case .protobuf: (body, type) = (OTLPEncoding.protobuf(batch, resource: resource), "application/x-protobuf")
        }
        let request = HTTPClient.Request(url: endpoint, method: "POST", headers: headers.merging(["Content-Type": type]) { $1 }, body: body, idleSeconds: timeout, totalSeconds: timeout)
        var failure: String?
        for attempt in 0..<2 {
            var status = 0
            do throws(HTTPError) {
                try HTTPClient.perform(request) { event in
                    if case .head(let code, _) = event { status = code }
                    return true
                }
            } catch {
                failure = "\(endpoint): \(error)"
                break
            }
            if (200..<300).contains(status) {
                failure = nil
                break
            }
            failure = "\(endpoint) answered \(status)"
            guard attempt == 0, status == 429 || status == 503 else { break }
            sleep(1)
        }
        state.withLock { state in
            if let failure {
                state.statistics.failedBatches += 1
                state.statistics.dropped += batch.count
                state.statistics.lastError = failure
            } else {
                state.statistics.exported += batch.count
            }
        }
    }

    // MARK: - Configuration from the environment

    private static let shared = Mutex<[String: OTLPExporter]>([:])

    /// The process's exporter for the OTLP environment variables, or nil without an endpoint
    /// (the first caller's `resource` is the exporter's).
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment, resource: [String: SpanAttribute]) -> OTLPExporter? {
        let endpoint: String
        if let traces = environment["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"], !traces.isEmpty {
            endpoint = traces
        } else if let base = environment["OTEL_EXPORTER_OTLP_ENDPOINT"], !base.isEmpty {
            endpoint = (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/v1/traces"
        } else {
            return nil
        }
        let encoding = environment["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"].flatMap(Encoding.init(rawValue:))
            ?? environment["OTEL_EXPORTER_OTLP_PROTOCOL"].flatMap(Encoding.init(rawValue:)) ?? .protobuf
        var attributes = resource
        for pair in Self.pairs(environment["OTEL_RESOURCE_ATTRIBUTES"]) where attributes[pair.key] == nil { attributes[pair.key] = .string(pair.value) }
        if let name = environment["OTEL_SERVICE_NAME"], !name.isEmpty { attributes["service.name"] = .string(name) }
        let headers = Dictionary(Self.pairs(environment["OTEL_EXPORTER_OTLP_HEADERS"]).map { ($0.key, $0.value) }) { $1 }
        let timeout = environment["OTEL_EXPORTER_OTLP_TIMEOUT"].flatMap(Double.init).map { $0 / 1000 }.flatMap { $0 > 0 ? $0 : nil } ?? 10
        let key = "\(endpoint) \(encoding.rawValue)"
        return shared.withLock { exporters in
            if let existing = exporters[key] { return existing }
            let made = OTLPExporter(endpoint: endpoint, encoding: encoding, headers: headers, resource: attributes, timeout: timeout)
            exporters[key] = made
            return made
        }
    }

    /// `key1=value1,key2=value2` (W3C baggage style, as OTel's variables are written), percent-decoded.
    static func pairs(_ text: String?) -> [(key: String, value: String)] {
        (text ?? "").split(separator: ",").compactMap { item in
            let parts = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty else { return nil }
            return (parts[0].removingPercentEncoding ?? parts[0], parts[1].removingPercentEncoding ?? parts[1])
        }
    }
}
