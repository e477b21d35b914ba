import Foundation

/// The package's checkout, found from this file's path (`Tests/TrailheadTestSupport/Checkout.swift`):
/// the one place the tests compute it.
public enum Checkout {
    public static let root: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// `relative` inside the checkout: `Checkout.path("Tests/Fixtures/ics")`.
    public static func path(_ relative: String) -> String { root + "/" + relative }
}
