import Foundation
import Testing
import Trailhead
import TrailheadSupport
@testable import TrailheadAgent
import TrailheadModels

#if canImport(Glibc)
import Glibc
#endif

/// The OTLP exporter stays off a run's path: a collector that never answers does not hold a
/// response, and a full queue drops spans (and counts them) instead of growing.
struct TelemetryExportTests {
    /// A port that takes connections and never answers (nothing accepts them past the backlog).
    static func silentCollector() throws -> (fd: Int32, endpoint: String) {
        let (fd, port) = try LoopbackSocket.listen(port: 0)
        return (fd, "http://127.0.0.1:\(port)/v1/traces")
    }

    @Test func aCollectorThatNeverAnswersDoesNotHoldAResponse() async throws {
        let collector = try Self.silentCollector()
        defer { close(collector.fd) }
        let exporter = OTLPExporter(endpoint: collector.endpoint, interval: 0.05, timeout: 600)
        let session = LanguageModelSession(model: ScriptedModel(outputs: ["Sunny.", "Cloudy."]), instructions: "Answer briefly.")
        session.configuration.telemetry = Telemetry(exporter: exporter)
        _ = try await session.respond(to: "Weather in Porto?")
        // The first response's spans are on their way to a collector that will not answer within
        // the exporter's 600 s: the next response is answered meanwhile.
        try await Task.sleep(nanoseconds: 500_000_000)
        let answer = try await session.respond(to: "And tomorrow?")
        #expect(answer.content == "Cloudy.")
        let statistics = exporter.statistics
        #expect(statistics.exported == 0 && statistics.failedBatches == 0, "the first batch is still in flight: \(statistics)")
    }

    @Test func theToolDecisionsProbabilityQueriesAreSpansBesideTheModelTurns() async throws {
        let collector = try Self.silentCollector()
        defer { close(collector.fd) }
        let exporter = OTLPExporter(endpoint: collector.endpoint, batchSize: 100, interval: 600)
        let keys = StepSchema.keys
        let model = ScriptedModel(
            outputs: [#"{"\#(keys.call)":"lookup","\#(keys.arguments)":{"query":"Ana"}}"#, #"{"\#(keys.final)":"Ana lives in LA."}"#],
            nextTokenProbabilities: [TokenProbability(token: "answer", probability: 0.75), TokenProbability(token: "name", probability: 0.25)])
        let session = LanguageModelSession(model: model, tools: [CallsRespectTheFunctionTests.Lookup(readOnly: true)])
        session.configuration.toolDecision = .standard
        session.configuration.telemetry = Telemetry(exporter: exporter)
        _ = try await session.respond(to: "Where does Ana live?")
        let spans = exporter.queuedSpans
        let agent = try #require(spans.first { $0.name.hasPrefix("invoke_agent") })
        let decisions = spans.filter { $0.name.hasPrefix("text_completion ") }
        for decision in decisions {
            #expect(decision.parentSpanID == agent.context.spanID)
            #expect(decision.kind == .client)
            #expect(decision.error == nil)
        }
        // Before each of the two turns, the call's share (0.25: the first turn is committed, the
        // later one is below its threshold); after the call, whether the chain goes on (these
        // scripted tokens say neither: no share).
        let shares = decisions.filter { $0.attributes["trailhead.decision"] == "call_probability" }
        #expect(shares.count == 2, "\(spans.map(\.name))")
        #expect(shares.allSatisfy { $0.attributes["trailhead.decision.share"] == .double(0.25) })
        let chainEnds = decisions.filter { $0.attributes["trailhead.decision"] == "chain_continuation" }
        #expect(chainEnds.count == 1 && chainEnds.first?.attributes["trailhead.decision.share"] == nil)
        #expect(spans.filter { $0.name.hasPrefix("chat ") }.count == 2)
    }

    @Test func aFullQueueDropsSpansAndCountsThem() throws {
        let collector = try Self.silentCollector()
        defer { close(collector.fd) }
        // A long interval and a batch larger than the queue: nothing leaves while spans arrive.
        let exporter = OTLPExporter(endpoint: collector.endpoint, maximumQueue: 3, batchSize: 10, interval: 60)
        let telemetry = Telemetry(exporter: exporter)
        for index in 0..<5 { telemetry.record("span \(index)", from: Date(), to: Date(), attributes: [:]) }
        #expect(exporter.statistics.dropped == 2)
    }

    @Test func theEnvironmentChoosesTheEndpointProtocolAndResource() {
        let exporter = OTLPExporter.fromEnvironment(
            ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318/", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json", "OTEL_SERVICE_NAME": "trips",
             "OTEL_RESOURCE_ATTRIBUTES": "deployment.environment=prod, team=travel%20desk", "OTEL_EXPORTER_OTLP_HEADERS": "authorization=Bearer%20x"],
            resource: ["trailhead.role": "serve"])
        #expect(exporter?.endpoint == "http://collector:4318/v1/traces")
        #expect(exporter?.encoding == .json)
        #expect(exporter?.resource["service.name"] == "trips")
        #expect(exporter?.resource["team"] == "travel desk")
        #expect(exporter?.resource["trailhead.role"] == "serve")
        #expect(exporter?.headers["authorization"] == "Bearer x")
        #expect(OTLPExporter.fromEnvironment([:], resource: [:]) == nil, "no endpoint, no export")
        let traces = OTLPExporter.fromEnvironment(["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://elsewhere/traces", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"], resource: [:])
        #expect(traces?.endpoint == "http://elsewhere/traces", "the traces endpoint is used as given")
        #expect(traces?.encoding == .protobuf, "OTLP's default")
    }
}
