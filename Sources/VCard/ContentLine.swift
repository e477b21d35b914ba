/// One property of a card: `group.NAME;PARAM=value:value`, with its value still raw bytes.
struct ContentLine {
    var lineNumber: Int
    /// `item1` in `item1.ADR`; Apple groups a property with its `X-ABLabel` this way.
    var group: String?
    /// Uppercased.
    var name: String
    var parameters: [Parameter]
    var rawValue: ArraySlice<UInt8>

    /// A parameter; names are uppercased, bare vCard 2.1 parameters (`TEL;HOME;VOICE:`) are
    /// given their implied name (`TYPE`, or `ENCODING` for `QUOTED-PRINTABLE`, `BASE64`, `8BIT`).
    struct Parameter {
        var name: String
        var values: [String]
    }

    /// The first value of parameter `name` (uppercased).
    func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.values.first
    }

    /// Every `TYPE` value, lowercased, from `TYPE=a,b`, `TYPE=a;TYPE=b`, `TYPE="a,b"` and bare 2.1 forms;
    /// `PREF=1` (vCard 4.0) reads as the type `pref`.
    var types: [String] {
        var result: [String] = []
        for parameter in parameters {
            if parameter.name == "TYPE" {
                for value in parameter.values {
                    for type in value.split(separator: ",") {
                        let type = type.trimmingSpaces.lowercased()
                        if !type.isEmpty, !result.contains(type) { result.append(type) }
                    }
                }
            } else if parameter.name == "PREF", !result.contains("pref") {
                result.append("pref")
            }
        }
        return result
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces, tabs and line ends.
    var trimmingSpaces: String {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        let text = Substring(self)
        guard let first = text.utf8.firstIndex(where: { !isSpace($0) }), let last = text.utf8.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(text[first...last])
    }
}
