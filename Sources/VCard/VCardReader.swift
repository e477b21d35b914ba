import Foundation

/// Reads vCard 2.1, 3.0 (RFC 2426) and 4.0 (RFC 6350) files into contacts.
///
/// A malformed card is skipped with a warning that names it (its line and name) and the
/// problem; the other cards are still read. Only a file that cannot be read at all, or is
/// larger than `maximumFileSize`, is an error.
public enum VCardReader {
    /// Files above this size are refused rather than read into memory (20 MB holds tens of
    /// thousands of cards without photos).
    public static let maximumFileSize = 20 * 1024 * 1024

    /// Reads the file at `path`.
    public static func read(contentsOfFile path: String, maximumSize: Int = maximumFileSize) throws(VCardFileError) -> VCardReadResult {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            if !FileManager.default.fileExists(atPath: path) { throw .missing(path: path) }
            throw .unreadable(path: path, reason: "\(error.localizedDescription)")
        }
        if let type = attributes[.type] as? FileAttributeType, type == .typeDirectory {
            throw .unreadable(path: path, reason: "it is a directory")
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard size <= maximumSize else { throw .tooLarge(path: path, bytes: size, limit: maximumSize) }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadable(path: path, reason: "\(error.localizedDescription)")
        }
        // The file may have grown between the size check and the read.
        guard data.count <= maximumSize else { throw .tooLarge(path: path, bytes: data.count, limit: maximumSize) }
        return read(data)
    }

    /// Reads cards from bytes; refuses more than `maximumSize` bytes with a warning and no contacts.
    public static func read(_ data: Data, maximumSize: Int = maximumFileSize) -> VCardReadResult {
        guard data.count <= maximumSize else {
            return VCardReadResult(warnings: [VCardWarning(
                line: 0, message: "input is \(data.count) bytes; the limit is \(maximumSize) bytes; nothing read")])
        }
        let (bytes, encodingWarning) = FileEncoding.utf8([UInt8](data))
        var machine = CardSplitter()
        for line in LogicalLines.split(bytes) {
            machine.consume(line)
        }
        var result = machine.finish()
        if let encodingWarning { result.warnings.insert(VCardWarning(line: 1, message: encodingWarning), at: 0) }
        return result
    }

    /// Reads cards from text (tests and callers that already hold a string).
    public static func read(_ text: String) -> VCardReadResult {
        read(Data(text.utf8))
    }
}
