import Foundation
import TrailheadSupport

/// A port free on 127.0.0.1 now.
public func freeLoopbackPort() throws -> Int {
    let (descriptor, port) = try LoopbackSocket.listen(port: 0)
    close(descriptor)
    return port
}
