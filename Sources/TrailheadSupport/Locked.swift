import Foundation

/// A value shared between threads, guarded by a lock: a reference that escaping closures and
/// stored properties of value types can hold (a `Mutex` can be neither copied nor captured).
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    public var current: Value { withLock { $0 } }
}
