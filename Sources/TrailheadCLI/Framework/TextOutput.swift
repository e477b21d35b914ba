#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Where a command writes text: a file descriptor (`write(2)`, since Swift 6 rejects the C
/// `stdout` global) or, in tests, a buffer.
public struct TextOutput: Sendable {
    private let sink: @Sendable (String) -> Void
    /// Whether the output is a terminal (for colour and progress display).
    public let isTerminal: Bool

    public init(isTerminal: Bool = false, sink: @escaping @Sendable (String) -> Void) {
        self.isTerminal = isTerminal
        self.sink = sink
    }

    /// Writes straight to `fd`, retrying short writes and interruptions.
    public static func fileDescriptor(_ fd: Int32) -> TextOutput {
        TextOutput(isTerminal: isatty(fd) == 1) { text in
            var bytes = Array(text.utf8)[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    return  // a closed pipe: nothing useful left to do with the text
                }
                bytes = bytes.dropFirst(written)
            }
        }
    }

    public static let standardOutput = fileDescriptor(STDOUT_FILENO)
    public static let standardError = fileDescriptor(STDERR_FILENO)

    /// Collects everything written into `buffer` (for tests).
    public static func capturing(into buffer: CapturedText) -> TextOutput {
        TextOutput { buffer.append($0) }
    }

    public func write(_ text: String) { sink(text) }

    /// Writes `text` and a newline.
    public func line(_ text: String) { sink(text + "\n") }
}

/// Text written to a capturing `TextOutput`.
public final class CapturedText: @unchecked Sendable {
    private let lock = NSLock()
    private var storage = ""

    public init() {}

    public var text: String { lock.withLock { storage } }
    func append(_ text: String) { lock.withLock { storage += text } }
}
