import Foundation
import TrailheadSupport

/// One HTTP exchange with a model server on the one HTTP client (TrailheadSupport's, on libcurl),
/// its errors in this transport's terms. Terminating the returned stream (the consumer's task is
/// cancelled, or it stops iterating) stops the transfer.
enum HTTPStreamingCall {
    struct Timeouts: Sendable {
        /// The longest silence between two pieces of the response (and before the head).
        var idle: Double
        /// The longest whole exchange.
        var total: Double
    }

    /// Starts `request`; errors are `HTTPTransportError`.
    static func start(_ request: HTTPClient.Request, timeouts: Timeouts) -> AsyncThrowingStream<HTTPClient.Event, any Error> {
        HTTPClient.stream(timed(request, timeouts)) { HTTPTransportError($0, timeouts: timeouts) }
    }

    /// Sends `request` and collects the whole response (at most 64 MiB); errors are `HTTPTransportError`.
    static func fetch(_ request: HTTPClient.Request, timeouts: Timeouts) async throws -> (status: Int, headers: [String: String], body: [UInt8]) {
        try await HTTPClient.fetch(timed(request, timeouts)) { HTTPTransportError($0, timeouts: timeouts) }
    }

    private static func timed(_ request: HTTPClient.Request, _ timeouts: Timeouts) -> HTTPClient.Request {
        var request = request
        request.idleSeconds = timeouts.idle
        request.totalSeconds = timeouts.total
        return request
    }
}
