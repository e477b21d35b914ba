// Snapshots without copying: the open containers lend their storage to the snapshot.
//
// Each open container keeps its finished children in its own array or object. To show the
// document, the partial child of each container (the string being read, or the container
// above it on the stack) is put into it provisionally, from the innermost out, and the
// outermost container is returned: O(depth) work, and the snapshot shares every buffer.
// Before the next byte is parsed the provisional children are taken out again, outermost
// first, so that each inner buffer is again referenced only by its frame; when the caller has
// released the snapshot by then, every later append mutates its buffer in place.

extension PartialJSONParser {
    mutating func installProvisionalValues() -> GeneratedContent? {
        let partialString: GeneratedContent? =
            mode == .string && !string.isKey ? .string(string.content) : nil
        if provisionalInstalled { return frames.first?.value ?? partialString }
        var partial = partialString
        for index in frames.indices.reversed() {
            if let child = partial {
                if frames[index].isArray {
                    frames[index].elements.append(child)
                } else {
                    let key = frames[index].key!
                    frames[index].members[key] = child
                }
                frames[index].holdsProvisional = true
                provisionalInstalled = true
            }
            partial = frames[index].value
        }
        return partial
    }

    mutating func removeProvisionalValues() {
        for index in frames.indices where frames[index].holdsProvisional {
            if frames[index].isArray {
                frames[index].elements.removeLast()
            } else {
                // Replacing keeps the member's position (and costs O(1), unlike removing a key);
                // the next snapshot or the finished value takes the place again.
                let key = frames[index].key!
                frames[index].members[key] = .null
            }
            frames[index].holdsProvisional = false
        }
        provisionalInstalled = false
    }
}
