/// A plain C function's signature as a manifest's native binding describes it.
public struct NativeSignature: Sendable, Hashable {
    /// The exported function's name.
    public var symbol: String
    /// In C parameter order, each taken from the named argument.
    public var parameters: [NativeParameter]
    /// `nil` for `void`.
    public var returns: NativeType?
    /// For a `string` return: the library's function that releases it (`void f(char *)`);
    /// `nil` when the string is static or owned by the library.
    public var free: String?

    public init(symbol: String, parameters: [NativeParameter], returns: NativeType?, free: String?) {
        self.symbol = symbol
        self.parameters = parameters
        self.returns = returns
        self.free = free
    }
}

/// One C parameter, filled from the argument object's member `argument`.
public struct NativeParameter: Sendable, Hashable {
    public var argument: String
    public var type: NativeType

    public init(argument: String, type: NativeType) {
        self.argument = argument
        self.type = type
    }
}

/// The C types the native binding marshals.
public enum NativeType: String, Sendable, Hashable, CaseIterable {
    case int32, int64, uint32, uint64, float, double, bool
    /// `const char *`, UTF-8, NUL-terminated.
    case string
}
