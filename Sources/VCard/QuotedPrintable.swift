/// Decodes vCard 2.1 `ENCODING=QUOTED-PRINTABLE` values (soft line breaks were already joined
/// by `LogicalLines`).
enum QuotedPrintable {
    struct Problem: Error {
        var message: String
    }

    static func decode(_ bytes: ArraySlice<UInt8>) throws(Problem) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "=") else {
                result.append(byte)
                index += 1
                continue
            }
            // A trailing `=` is a soft line break that had nothing after it.
            if index + 1 == bytes.endIndex { break }
            guard index + 2 < bytes.endIndex,
                  let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            else {
                let sample = String(decoding: bytes[index..<min(index + 3, bytes.endIndex)], as: UTF8.self)
                throw Problem(message: "bad quoted-printable escape '\(sample)' (expected '=' and two hex digits)")
            }
            result.append(high << 4 | low)
            index += 3
        }
        return result
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
