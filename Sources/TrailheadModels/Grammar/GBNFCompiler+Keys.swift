extension GBNFCompiler {
    /// A JSON string (quotes included) that is none of `excluded`, so an additional member
    /// cannot reuse a declared property's name. Built on the trie of the excluded names: at each
    /// node the string may end (unless the node is a name), go on into a child, or leave the
    /// trie with any other character. `nil` when a name needs escaping in JSON (then any key is
    /// allowed and the caller records an approximation).
    mutating func keyExcluding(_ excluded: [String], at pointer: String) -> String? {
        guard excluded.allSatisfy({ $0.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0 != "\"" && $0 != "\\" } }) else {
            return nil
        }
        let char = primitive(.char)
        let anyTail = "\(char)* \"\\\"\""
        // The trie: children by scalar, and whether a name ends here.
        final class Node {
            var children: [(Unicode.Scalar, Node)] = []
            var isName = false
        }
        let root = Node()
        for name in excluded {
            var node = root
            for scalar in name.unicodeScalars {
                if let next = node.children.first(where: { $0.0 == scalar })?.1 {
                    node = next
                } else {
                    let next = Node()
                    node.children.append((scalar, next))
                    node = next
                }
            }
            node.isName = true
        }
        func rule(_ node: Node, _ path: String) -> String {
            var options: [String] = []
            if !node.isName { options.append("\"\\\"\"") }
            for (scalar, child) in node.children {
                options.append(GBNFText.literal(String(scalar)) + " " + rule(child, path + "-c"))
            }
            // Any other character: an unescaped one outside the children, or an escape.
            let excludedHere = node.children.map { GBNFText.classMember($0.0) }.joined()
            options.append(#"([^"\#(excludedHere)"\\\x00-\x1F] | "\\" (["\\/bfnrt] | "u" [0-9a-fA-F]{4})) "# + anyTail)
            return addRule(pointer + "-key" + path, options.joined(separator: " | "))
        }
        return "\"\\\"\" " + rule(root, "")
    }
}
