import CCurl
import Foundation
import Synchronization

/// The one HTTP client, on libcurl: model endpoints (streamed server-sent events), MCP servers
/// over HTTP and HTTPS, and health probes. A transfer runs on a thread of its own (never on
/// Swift's cooperative pool), with a bound on silence (`idleSeconds`, between any two pieces of
/// the response) and on the whole exchange (`totalSeconds`); cancelling stops it within about a
/// second (libcurl's progress callback).
public enum HTTPClient {
    public struct Request: Sendable {
        public var url: String
        public var method: String
        public var headers: [String: String]
        public var body: [UInt8]?
        public var idleSeconds: Double
        public var totalSeconds: Double

        public init(url: String, method: String = "GET", headers: [String: String] = [:], body: [UInt8]? = nil, idleSeconds: Double = 30, totalSeconds: Double = 300) {
            self.url = url
            self.method = method
            self.headers = headers
            self.body = body
            self.idleSeconds = idleSeconds
            self.totalSeconds = totalSeconds
        }
    }

    public enum Event: Sendable {
        /// The status and headers (lower-cased names); always first.
        case head(status: Int, headers: [String: String])
        case body([UInt8])
    }

    /// A flag another thread raises to stop a transfer.
    public final class Cancellation: Sendable {
        private let raised = Atomic(false)
        public init() {}
        public func cancel() { raised.store(true, ordering: .sequentiallyConsistent) }
        public var isCancelled: Bool { raised.load(ordering: .sequentiallyConsistent) }
    }

    /// The response as it arrives. Ending the stream (the consumer's task is cancelled, or it
    /// stops iterating) stops the transfer. Errors are `HTTPError`s, or what `mapError` makes of them.
    public static func stream(_ request: Request, mapError: @escaping @Sendable (HTTPError) -> any Error = { $0 }) -> AsyncThrowingStream<Event, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Event, any Error>.makeStream()
        let cancellation = Cancellation()
        continuation.onTermination = { _ in cancellation.cancel() }
        let thread = Thread {
            do throws(HTTPError) {
                try perform(request, cancellation: cancellation) { event in
                    continuation.yield(event)
                    return true
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: mapError(error))
            }
        }
        thread.start()
        return stream
    }

    /// Sends `request` and collects the whole response, refusing one larger than `maximumBytes`.
    /// Errors are `HTTPError`s, or what `mapError` makes of them.
    public static func fetch(
        _ request: Request, maximumBytes: Int = 64 << 20, mapError: @escaping @Sendable (HTTPError) -> any Error = { $0 }
    ) async throws -> (status: Int, headers: [String: String], body: [UInt8]) {
        var status = 0
        var headers: [String: String] = [:]
        var body: [UInt8] = []
        for try await event in stream(request, mapError: mapError) {
            switch event {
            case .head(let s, let h): (status, headers) = (s, h)
            case .body(let piece):
                body += piece
                if body.count > maximumBytes { throw mapError(HTTPError(.malformed, "\(request.url): a response larger than \(maximumBytes >> 20) MiB")) }
            }
        }
        return (status, headers, body)
    }

    /// Runs `request` on the calling thread, giving each event to `receive` (false stops the
    /// transfer without an error).
    public static func perform(_ request: Request, cancellation: Cancellation = Cancellation(), receive: @escaping (Event) -> Bool) throws(HTTPError) {
        try Transfer(request: request, cancellation: cancellation, receive: receive).run()
    }
}

/// One libcurl easy handle and what its callbacks need.
private final class Transfer {
    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    let request: HTTPClient.Request
    let cancellation: HTTPClient.Cancellation
    let receive: (HTTPClient.Event) -> Bool
    private var status = 0
    private var headers: [String: String] = [:]
    private var headSent = false
    private var stoppedByReceiver = false
    private var idleExpired = false
    private var lastActivity = monotonicSeconds()
    private var handle: UnsafeMutableRawPointer?

    init(request: HTTPClient.Request, cancellation: HTTPClient.Cancellation, receive: @escaping (HTTPClient.Event) -> Bool) {
        self.request = request
        self.cancellation = cancellation
        self.receive = receive
    }

    func run() throws(HTTPError) {
        guard Self.initialized, let handle = curl_easy_init() else { throw HTTPError(.failed, "\(request.url): libcurl could not start") }
        self.handle = handle
        defer { curl_easy_cleanup(handle) }
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }
        // No `Expect: 100-continue` round trip for a body.
        for line in request.headers.map({ "\($0.key): \($0.value)" }) + ["Expect:"] { headerList = curl_slist_append(headerList, line) }
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let context = Unmanaged.passUnretained(self).toOpaque()
        let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { errors in
            trailhead_curl_set_string(handle, CURLOPT_URL, request.url)
            trailhead_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
            trailhead_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 0)
            // A proxy from the environment may serve remote endpoints, never the local ones.
            trailhead_curl_set_string(handle, CURLOPT_NOPROXY, "localhost,127.0.0.1,::1")
            trailhead_curl_set_long(handle, CURLOPT_PROTOCOLS, Int(CURLPROTO_HTTP | CURLPROTO_HTTPS))
            trailhead_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errors.baseAddress)
            trailhead_curl_set_headers(handle, headerList)
            switch (request.method, request.body) {
            case ("GET", nil): trailhead_curl_set_long(handle, CURLOPT_HTTPGET, 1)
            case ("HEAD", _): trailhead_curl_set_long(handle, CURLOPT_NOBODY, 1)
            case (let method, let body):
                trailhead_curl_set_long(handle, CURLOPT_POST, 1)
                trailhead_curl_set_size(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body?.count ?? 0))
                (body ?? []).withUnsafeBytes { bytes in
                    // Copied by libcurl, so the buffer may go.
                    _ = trailhead_curl_set_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!))
                }
                if method != "POST" { trailhead_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, method) }
            }
            let connectMilliseconds = Int(min(request.idleSeconds, request.totalSeconds) * 1000)
            trailhead_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, max(1, connectMilliseconds))
            trailhead_curl_set_long(handle, CURLOPT_TIMEOUT_MS, max(1, Int(request.totalSeconds * 1000)))
            trailhead_curl_set_header_function(handle, Transfer.onHeader)
            trailhead_curl_set_pointer(handle, CURLOPT_HEADERDATA, context)
            trailhead_curl_set_write(handle, Transfer.onBody)
            trailhead_curl_set_pointer(handle, CURLOPT_WRITEDATA, context)
            trailhead_curl_set_long(handle, CURLOPT_NOPROGRESS, 0)
            trailhead_curl_set_progress(handle, Transfer.onProgress)
            trailhead_curl_set_pointer(handle, CURLOPT_XFERINFODATA, context)
            return curl_easy_perform(handle)
        }
        let detail = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var systemError = 0
        trailhead_curl_get_long(handle, CURLINFO_OS_ERRNO, &systemError)
        switch code {
        case CURLE_OK:
            sendHead()
        case _ where stoppedByReceiver:
            return
        case _ where cancellation.isCancelled:
            throw HTTPError(.cancelled, "\(request.url): cancelled")
        case _ where idleExpired:
            throw HTTPError(.idleTimeout, "\(request.url): nothing arrived for \(request.idleSeconds) s")
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST:
            let reason = systemError == Int(ECONNREFUSED) ? "connection refused" : systemError != 0 ? String(cString: strerror(Int32(systemError))) : Self.reason(code, detail)
            throw HTTPError(.refused, "\(request.url): \(reason)")
        case CURLE_OPERATION_TIMEDOUT:
            throw HTTPError(headSent ? .timedOut : .idleTimeout, "\(request.url): no complete answer in time (\(Self.reason(code, detail)))")
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            let scheme = request.url.prefix { $0 != ":" }.lowercased()
            if scheme == "http" || scheme == "https" {
                throw HTTPError(.malformed, "\(request.url): not an HTTP response (\(Self.reason(code, detail)))")
            }
            throw HTTPError(.failed, "\(request.url): not an http:// or https:// URL (\(Self.reason(code, detail)))")
        case CURLE_WEIRD_SERVER_REPLY, CURLE_RECV_ERROR, CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING, CURLE_BAD_CONTENT_ENCODING:
            throw HTTPError(.closed, "\(request.url): \(Self.reason(code, detail))")
        default:
            throw HTTPError(.failed, "\(request.url): \(Self.reason(code, detail))")
        }
    }

    /// libcurl's sentence for `code`, or the detail it wrote.
    private static func reason(_ code: CURLcode, _ detail: String) -> String {
        detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
    }

    private func sendHead() {
        guard !headSent else { return }
        headSent = true
        var code = 0
        if let handle { trailhead_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &code) }
        if !receive(.head(status: code != 0 ? code : status, headers: headers)) { stoppedByReceiver = true }
    }

    private static let onHeader: curl_write_callback = { buffer, size, count, context in
        let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
        let length = size * count
        transfer.lastActivity = monotonicSeconds()
        guard let buffer else { return length }
        let line = String(decoding: UnsafeRawBufferPointer(start: buffer, count: length), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            // A new response (after a 100 Continue, say): its headers replace the last one's.
            transfer.headers = [:]
            transfer.status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        } else if let colon = line.firstIndex(of: ":") {
            transfer.headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return length
    }

    private static let onBody: curl_write_callback = { buffer, size, count, context in
        let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
        let length = size * count
        transfer.lastActivity = monotonicSeconds()
        if transfer.cancellation.isCancelled { return 0 }
        transfer.sendHead()
        guard !transfer.stoppedByReceiver else { return 0 }
        guard let buffer, length > 0 else { return length }
        let bytes = [UInt8](UnsafeRawBufferPointer(start: buffer, count: length))
        if !transfer.receive(.body(bytes)) {
            transfer.stoppedByReceiver = true
            return 0
        }
        return length
    }

    /// Called at least once a second: stops a cancelled transfer, and one silent too long.
    private static let onProgress: curl_xferinfo_callback = { context, _, _, _, _ in
        let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
        if transfer.cancellation.isCancelled { return 1 }
        if monotonicSeconds() - transfer.lastActivity > transfer.request.idleSeconds {
            transfer.idleExpired = true
            return 1
        }
        return 0
    }
}
