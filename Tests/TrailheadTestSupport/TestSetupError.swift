/// What a test needs and does not find (a product not built, test data not fetched, a server
/// that never came up): the message says what is missing and how to get it. A test fails with it;
/// it never skips.
public struct TestSetupError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
