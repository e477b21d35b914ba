/// Turns value bytes into text, honouring a `CHARSET` parameter.
///
/// Without a charset the bytes are read as UTF-8 and, when they are not valid UTF-8 (an old
/// export in a Western code page), as Windows-1252, which agrees with ISO-8859-1 on every
/// printable Latin-1 character. Other charsets (SHIFT_JIS, Big5, KOI8-R, UTF-16…) go through
/// iconv; one iconv does not know is read as UTF-8 (or Windows-1252) with a note. Decoding never
/// fails: a wrong guess gives wrong letters and a warning, not a crash.
enum TextDecoding {
    struct Decoded {
        var text: String
        /// Set when the bytes were not what the card said (or implied) they were.
        var fallback: String?
    }

    static func decode(_ bytes: some Collection<UInt8>, charset: String?) -> Decoded {
        withoutNULs(decodeKeepingNULs(bytes, charset: charset))
    }

    private static func decodeKeepingNULs(_ bytes: some Collection<UInt8>, charset: String?) -> Decoded {
        let label = charset?.trimmingSpaces.lowercased()
        switch label {
        case nil, "", "utf-8", "utf8", "us-ascii", "ascii":
            if let text = String(validating: bytes, as: UTF8.self) { return Decoded(text: text) }
            let what = (label ?? "").isEmpty ? "not valid UTF-8" : "not valid \(charset!)"
            return Decoded(text: windows1252(bytes), fallback: "\(what); read as Windows-1252")
        case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1", "iso_8859-1", "cp819":
            return Decoded(text: latin1(bytes))
        case "windows-1252", "cp1252", "cp-1252", "x-cp1252":
            return Decoded(text: windows1252(bytes))
        case .some:
            let other = charset!.trimmingSpaces
            switch Iconv.decode(bytes, charset: other) {
            case .text(let text):
                return Decoded(text: text)
            case .invalid:
                if let text = String(validating: bytes, as: UTF8.self) {
                    return Decoded(text: text, fallback: "not valid \(other); read as UTF-8")
                }
                return Decoded(text: windows1252(bytes), fallback: "not valid \(other); read as Windows-1252")
            case .unknownCharset:
                if let text = String(validating: bytes, as: UTF8.self) {
                    let fallback = bytes.allSatisfy({ $0 < 0x80 }) ? nil : "unsupported CHARSET=\(other); read as UTF-8"
                    return Decoded(text: text, fallback: fallback)
                }
                return Decoded(text: windows1252(bytes), fallback: "unsupported CHARSET=\(other); read as Windows-1252")
            }
        }
    }

    /// NUL characters (a UTF-16 value read as bytes) are dropped, with a note: a name must not
    /// carry invisible characters that break search and JSON readers.
    private static func withoutNULs(_ decoded: Decoded) -> Decoded {
        guard decoded.text.utf8.contains(0) else { return decoded }
        let text = String(String.UnicodeScalarView(decoded.text.unicodeScalars.filter { $0.value != 0 }))
        return Decoded(text: text, fallback: decoded.fallback ?? "NUL characters removed (a UTF-16 value without CHARSET?)")
    }

    static func latin1(_ bytes: some Collection<UInt8>) -> String {
        var text = String.UnicodeScalarView()
        for byte in bytes { text.append(Unicode.Scalar(byte)) }
        return String(text)
    }

    static func windows1252(_ bytes: some Collection<UInt8>) -> String {
        var text = String.UnicodeScalarView()
        for byte in bytes {
            if (0x80...0x9F).contains(byte), let scalar = Unicode.Scalar(windows1252High[Int(byte) - 0x80]), scalar.value != 0 {
                text.append(scalar)
            } else {
                text.append(Unicode.Scalar(byte))
            }
        }
        return String(text)
    }

    /// 0x80…0x9F in Windows-1252; 0 marks the five unassigned bytes (kept as Latin-1 controls).
    private static let windows1252High: [UInt32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ]
}
