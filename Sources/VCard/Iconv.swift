#if canImport(Glibc)
import Glibc
#endif

/// Text in the charsets phones and mail clients export (SHIFT_JIS, GB2312, Big5, KOI8-R,
/// UTF-16…), through glibc's iconv: no new dependency, and it knows every charset those
/// exports name.
enum Iconv {
    enum Outcome: Equatable {
        case text(String)
        /// iconv does not know the charset's name.
        case unknownCharset
        /// The bytes are not valid in that charset.
        case invalid
    }

    /// Decodes `bytes` written in `charset` into a string.
    static func decode(_ bytes: some Collection<UInt8>, charset: String) -> Outcome {
        let descriptor = iconv_open("UTF-8", charset)
        guard let descriptor, descriptor != iconv_t(bitPattern: -1) else { return .unknownCharset }
        defer { iconv_close(descriptor) }
        var input = Array(bytes)
        // UTF-8 takes at most 4 bytes per character and every charset here at least 1 per
        // character, except UTF-16/32 which take 2 or 4: 4× the input always suffices.
        var output = [UInt8](repeating: 0, count: input.count * 4 + 16)
        let written: Int? = input.withUnsafeMutableBytes { inputBuffer in
            output.withUnsafeMutableBytes { outputBuffer in
                var inPointer = inputBuffer.baseAddress?.assumingMemoryBound(to: CChar.self)
                var inLeft = inputBuffer.count
                var outPointer = outputBuffer.baseAddress?.assumingMemoryBound(to: CChar.self)
                var outLeft = outputBuffer.count
                if inLeft > 0, iconv(descriptor, &inPointer, &inLeft, &outPointer, &outLeft) == -1 { return nil }
                // Flush a stateful encoding's shift sequence (ISO-2022-JP).
                if iconv(descriptor, nil, nil, &outPointer, &outLeft) == -1 { return nil }
                return outputBuffer.count - outLeft
            }
        }
        guard let written, let text = String(validating: output[..<written], as: UTF8.self) else { return .invalid }
        return .text(text)
    }
}
