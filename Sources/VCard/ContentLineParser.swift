/// Reads a logical line as a content line: `[group.]name *(";" param) ":" value`.
enum ContentLineParser {
    /// Why a line is not a content line.
    struct Problem: Error {
        var message: String
    }

    static func parse(_ line: LogicalLine) throws(Problem) -> ContentLine {
        let bytes = line.bytes[...]
        guard let colon = valueSeparatorIndex(in: bytes) else {
            throw Problem(message: "line \(line.number) is not a property (no ':'): \(preview(bytes))")
        }
        let head = bytes[..<colon]
        let nameEnd = head.firstIndex(of: semicolon) ?? head.endIndex
        let qualifiedName = String(decoding: head[..<nameEnd], as: UTF8.self)
        guard !qualifiedName.isEmpty, qualifiedName.utf8.allSatisfy(isNameCharacter) else {
            throw Problem(message: "line \(line.number) has no valid property name: \(preview(bytes))")
        }
        var group: String?
        var name = qualifiedName
        if let dot = qualifiedName.lastIndex(of: ".") {
            group = String(qualifiedName[..<dot])
            name = String(qualifiedName[qualifiedName.index(after: dot)...])
        }
        guard !name.isEmpty else {
            throw Problem(message: "line \(line.number) has no valid property name: \(preview(bytes))")
        }
        let parameters = nameEnd < head.endIndex ? parseParameters(head[(nameEnd + 1)...]) : []
        return ContentLine(
            lineNumber: line.number, group: group, name: name.uppercased(),
            parameters: parameters, rawValue: bytes[(colon + 1)...])
    }

    /// The index of the `:` that ends name and parameters (colons inside quoted parameter values
    /// don't count), or nil.
    static func valueSeparatorIndex(in bytes: ArraySlice<UInt8>) -> Int? {
        var quoted = false
        for index in bytes.indices {
            switch bytes[index] {
            case quote: quoted.toggle()
            case colon where !quoted: return index
            default: continue
            }
        }
        return nil
    }

    /// `TYPE=HOME,WORK;type=pref;CHARSET="UTF-8";HOME` → parameters, with quotes removed.
    private static func parseParameters(_ bytes: ArraySlice<UInt8>) -> [ContentLine.Parameter] {
        var result: [ContentLine.Parameter] = []
        for piece in splitOutsideQuotes(bytes, on: semicolon) {
            let text = decodeParameterText(piece)
            guard !text.trimmingSpaces.isEmpty else { continue }  // `TEL;:123` (seen in Android exports)
            if let equalsSign = text.firstIndex(of: "=") {
                let name = text[..<equalsSign].trimmingSpaces.uppercased()
                let values = splitOutsideQuotes(Array(text[text.index(after: equalsSign)...].utf8)[...], on: comma)
                    .map { unquote(decodeParameterText($0)) }
                result.append(ContentLine.Parameter(name: name, values: values))
            } else {
                let value = text.trimmingSpaces
                result.append(ContentLine.Parameter(name: impliedName(ofBare: value), values: [value]))
            }
        }
        return result
    }

    /// vCard 2.1 writes parameters without names: `TEL;WORK;FAX`, `NOTE;QUOTED-PRINTABLE`.
    private static func impliedName(ofBare value: String) -> String {
        switch value.uppercased() {
        case "QUOTED-PRINTABLE", "BASE64", "8BIT", "7BIT", "B": "ENCODING"
        default: "TYPE"
        }
    }

    private static func splitOutsideQuotes(_ bytes: ArraySlice<UInt8>, on separator: UInt8) -> [ArraySlice<UInt8>] {
        var pieces: [ArraySlice<UInt8>] = []
        var quoted = false
        var start = bytes.startIndex
        for index in bytes.indices {
            if bytes[index] == quote { quoted.toggle() }
            if bytes[index] == separator, !quoted {
                pieces.append(bytes[start..<index])
                start = index + 1
            }
        }
        pieces.append(bytes[start..<bytes.endIndex])
        return pieces
    }

    /// Removes surrounding quotes and decodes RFC 6868 `^n`, `^^`, `^'`.
    private static func unquote(_ text: String) -> String {
        var value = text.trimmingSpaces
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
            value = String(value.dropFirst().dropLast())
        }
        guard value.utf8.contains(UInt8(ascii: "^")) else { return value }
        var result = ""
        var iterator = value.makeIterator()
        while let character = iterator.next() {
            guard character == "^" else { result.append(character); continue }
            switch iterator.next() {
            case "n", "N": result.append("\n")
            case "^": result.append("^")
            case "'": result.append("\"")
            case let other?: result.append("^"); result.append(other)
            case nil: result.append("^")
            }
        }
        return result
    }

    private static func decodeParameterText(_ bytes: ArraySlice<UInt8>) -> String {
        TextDecoding.decode(bytes, charset: nil).text
    }

    private static func preview(_ bytes: ArraySlice<UInt8>) -> String {
        let text = TextDecoding.decode(bytes.prefix(40), charset: nil).text
        return "'\(text)\(bytes.count > 40 ? "…" : "")'"
    }

    private static func isNameCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            true
        default:
            false
        }
    }
}

private let colon = UInt8(ascii: ":")
private let semicolon = UInt8(ascii: ";")
private let comma = UInt8(ascii: ",")
private let quote = UInt8(ascii: "\"")
