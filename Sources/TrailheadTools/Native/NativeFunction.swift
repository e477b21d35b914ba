import CFFI
import Foundation
import TrailheadSchema

/// A plain C function called through libffi, its call interface prepared once at load time.
///
/// The arguments were validated against the tool's schema; marshalling still checks each value
/// against its C type (an integer out of range, a fraction for an int) and says which argument.
final class NativeFunction: @unchecked Sendable {
    let signature: NativeSignature
    private let function: @convention(c) () -> Void
    private let release: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?
    private let cif = UnsafeMutablePointer<ffi_cif>.allocate(capacity: 1)
    private let argumentTypes: UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>

    init(_ signature: NativeSignature, in library: SharedLibrary) throws(PluginLoadError) {
        self.signature = signature
        guard let address = library.symbol(signature.symbol) else {
            throw PluginLoadError("\(library.fileName): no symbol '\(signature.symbol)' for the native binding")
        }
        function = unsafeBitCast(address, to: (@convention(c) () -> Void).self)
        if let freeName = signature.free {
            guard let freeAddress = library.symbol(freeName) else {
                throw PluginLoadError("\(library.fileName): no symbol '\(freeName)' (the \"free\" of '\(signature.symbol)')")
            }
            release = unsafeBitCast(freeAddress, to: (@convention(c) (UnsafeMutableRawPointer?) -> Void).self)
        } else {
            release = nil
        }
        let count = signature.parameters.count
        argumentTypes = .allocate(capacity: max(count, 1))
        for (index, parameter) in signature.parameters.enumerated() { argumentTypes[index] = Self.ffiType(parameter.type) }
        let returnType = signature.returns.map(Self.ffiType) ?? cffi_type_void()
        let status = ffi_prep_cif(cif, cffi_default_abi(), UInt32(count), returnType, argumentTypes)
        guard status == FFI_OK else {
            throw PluginLoadError("\(library.fileName): libffi could not prepare '\(signature.symbol)' (status \(status.rawValue))")
        }
    }

    /// Calls the function with members of `arguments`; the result is `{"result": value}`.
    func call(_ arguments: GeneratedContent) throws(ToolCallFailure) -> GeneratedContent {
        let count = signature.parameters.count
        // One 8-byte slot per parameter holds its C value; strings are copied and freed after.
        let slots = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1) * 8, alignment: 8)
        let pointers = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: max(count, 1))
        var strings: [UnsafeMutablePointer<CChar>] = []
        defer {
            strings.forEach { free($0) }
            slots.deallocate()
            pointers.deallocate()
        }
        for (index, parameter) in signature.parameters.enumerated() {
            let slot = slots + index * 8
            pointers[index] = slot
            let value = arguments[parameter.argument] ?? .null
            if let copy = try Self.store(value, as: parameter, in: slot) { strings.append(copy) }
        }
        var returned: (UInt64, UInt64) = (0, 0)  // at least sizeof(ffi_arg), aligned for any return type
        return try withUnsafeMutableBytes(of: &returned) { (buffer) throws(ToolCallFailure) -> GeneratedContent in
            ffi_call(cif, function, buffer.baseAddress, pointers)
            return ["result": try self.result(from: buffer.baseAddress!)]
        }
    }

    private func result(from buffer: UnsafeMutableRawPointer) throws(ToolCallFailure) -> GeneratedContent {
        guard let type = signature.returns else { return .null }
        // libffi widens integral returns narrower than a register to ffi_arg (64 bits here).
        switch type {
        case .int32: return .number(Double(Int32(truncatingIfNeeded: buffer.load(as: Int64.self))))
        case .uint32: return .number(Double(UInt32(truncatingIfNeeded: buffer.load(as: UInt64.self))))
        case .int64: return .number(Double(buffer.load(as: Int64.self)))
        case .uint64: return .number(Double(buffer.load(as: UInt64.self)))
        case .float: return .number(Double(buffer.load(as: Float.self)))
        case .double: return .number(buffer.load(as: Double.self))
        case .bool: return .bool(UInt8(truncatingIfNeeded: buffer.load(as: UInt64.self)) != 0)
        case .string:
            guard let pointer = buffer.load(as: UnsafeMutableRawPointer?.self) else { return .null }
            let text = String(cString: pointer.assumingMemoryBound(to: CChar.self))
            release?(pointer)
            return .string(text)
        }
    }

    /// Writes `value` into `slot` as the parameter's C type; returns a string copy to free later.
    private static func store(_ value: GeneratedContent, as parameter: NativeParameter, in slot: UnsafeMutableRawPointer) throws(ToolCallFailure) -> UnsafeMutablePointer<CChar>? {
        func mismatch(_ what: String) -> ToolCallFailure {
            ToolCallFailure("argument '\(parameter.argument)': \(value.jsonString) is not \(what)")
        }
        switch parameter.type {
        case .int32:
            guard case .number(let n) = value, n.isWholeNumber, let v = Int32(exactly: n) else { throw mismatch("an int32") }
            slot.storeBytes(of: v, as: Int32.self)
        case .uint32:
            guard case .number(let n) = value, n.isWholeNumber, let v = UInt32(exactly: n) else { throw mismatch("a uint32") }
            slot.storeBytes(of: v, as: UInt32.self)
        case .int64:
            guard case .number(let n) = value, n.isWholeNumber, let v = Int64(exactly: n) else { throw mismatch("an int64") }
            slot.storeBytes(of: v, as: Int64.self)
        case .uint64:
            guard case .number(let n) = value, n.isWholeNumber, let v = UInt64(exactly: n) else { throw mismatch("a uint64") }
            slot.storeBytes(of: v, as: UInt64.self)
        case .float:
            guard case .number(let n) = value else { throw mismatch("a number") }
            slot.storeBytes(of: Float(n), as: Float.self)
        case .double:
            guard case .number(let n) = value else { throw mismatch("a number") }
            slot.storeBytes(of: n, as: Double.self)
        case .bool:
            guard case .bool(let b) = value else { throw mismatch("a boolean") }
            slot.storeBytes(of: b ? 1 : 0, as: UInt8.self)
        case .string:
            guard case .string(let text) = value else { throw mismatch("a string") }
            guard !text.utf8.contains(0) else { throw mismatch("a string without NUL characters") }
            guard let copy = strdup(text) else { throw ToolCallFailure("out of memory copying '\(parameter.argument)'") }
            slot.storeBytes(of: copy, as: UnsafeMutablePointer<CChar>.self)
            return copy
        }
        return nil
    }

    private static func ffiType(_ type: NativeType) -> UnsafeMutablePointer<ffi_type> {
        switch type {
        case .int32: cffi_type_sint32()
        case .uint32: cffi_type_uint32()
        case .int64: cffi_type_sint64()
        case .uint64: cffi_type_uint64()
        case .float: cffi_type_float()
        case .double: cffi_type_double()
        case .bool: cffi_type_uint8()
        case .string: cffi_type_pointer()
        }
    }
}

/// A tool-level error message (the plugin said no, or a value would not marshal).
struct ToolCallFailure: Error, Sendable {
    let message: String
    init(_ message: String) { self.message = message }
}
