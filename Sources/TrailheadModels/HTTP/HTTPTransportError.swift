import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What went wrong below HTTP: the part of an error that decides whether to retry.
enum HTTPTransportError: Error, Sendable, Equatable {
    /// Nobody listens (connection refused, host unreachable): worth retrying a little.
    case refused(String)
    /// Nothing arrived for `seconds`.
    case idleTimeout(seconds: Double)
    /// The whole exchange took longer than `seconds`.
    case totalTimeout(seconds: Double)
    /// The connection broke or the response was malformed.
    case failed(String)
    case cancelled

    init(_ error: any Error) {
        guard let urlError = error as? URLError else {
            self = .failed(String(describing: error))
            return
        }
        switch urlError.code {
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet:
            self = .refused(urlError.localizedDescription)
        case .cancelled: self = .cancelled
        case .timedOut: self = .idleTimeout(seconds: 0)
        default: self = .failed("\(urlError.localizedDescription) (URLError \(urlError.code.rawValue))")
        }
    }
}
