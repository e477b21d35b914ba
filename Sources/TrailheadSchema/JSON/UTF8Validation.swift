/// RFC 3629's well-formed UTF-8, shared by the strict and the streaming JSON parsers.
enum UTF8Validation {
    /// For a lead byte of a multi-byte sequence: its length and the allowed range of the byte
    /// after it (which rules out overlongs, surrogates and code points above U+10FFFF); the
    /// bytes after that are always 0x80…0xBF. `nil` for a byte that cannot lead a sequence.
    static func sequence(leadBy lead: UInt8) -> (length: Int, low: UInt8, high: UInt8)? {
        switch lead {
        case 0xC2...0xDF: (2, 0x80, 0xBF)
        case 0xE0: (3, 0xA0, 0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (3, 0x80, 0xBF)
        case 0xED: (3, 0x80, 0x9F)
        case 0xF0: (4, 0x90, 0xBF)
        case 0xF1...0xF3: (4, 0x80, 0xBF)
        case 0xF4: (4, 0x80, 0x8F)
        default: nil
        }
    }
}
