/// Whole files in UTF-16 (Outlook's and some Android exports' "Unicode"), turned into UTF-8
/// before lines are split: the splitter works on bytes, and in UTF-16 every ASCII letter
/// carries a NUL, so nothing would be read.
enum FileEncoding {
    /// The file as UTF-8 bytes, and a note when it had to be transcoded and could not be.
    static func utf8(_ bytes: [UInt8]) -> (bytes: [UInt8], warning: String?) {
        guard let charset = utf16Charset(of: bytes) else { return (bytes, nil) }
        switch Iconv.decode(bytes, charset: charset) {
        case .text(var text):
            if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
            return (Array(text.utf8), nil)
        case .invalid, .unknownCharset:
            // Keep what can be kept: drop the NULs of the ASCII characters.
            return (bytes.filter { $0 != 0 }, "the file looks like \(charset) but is not valid \(charset); read byte by byte")
        }
    }

    /// `UTF-16` (with a byte order mark), `UTF-16LE` or `UTF-16BE` (without one, recognised by the
    /// NUL beside each of the first ASCII characters), or nil.
    static func utf16Charset(of bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { return "UTF-16" }
        let head = bytes.prefix(16)
        guard head.count == 16 else { return nil }
        let even = stride(from: 0, to: 16, by: 2).map { head[$0] }
        let odd = stride(from: 1, to: 16, by: 2).map { head[$0] }
        if odd.allSatisfy({ $0 == 0 }), even.allSatisfy({ $0 != 0 && $0 < 0x80 }) { return "UTF-16LE" }
        if even.allSatisfy({ $0 == 0 }), odd.allSatisfy({ $0 != 0 && $0 < 0x80 }) { return "UTF-16BE" }
        return nil
    }
}
