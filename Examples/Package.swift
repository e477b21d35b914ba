// swift-tools-version:6.0
// Agents written against Trailhead the way an outside package writes them: this package depends on
// the checkout by path and imports one module, `Trailhead`. `make test` builds it, and the tests run
// the agents (Tests/TrailheadCLITests/ExamplesTests.swift).
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder, whatever the clone is called.
let trailhead = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()
let trailheadProduct = Target.Dependency.product(name: "Trailhead", package: trailhead.lastPathComponent)

let package = Package(
    name: "TrailheadExamples",
    dependencies: [.package(path: trailhead.path)],
    targets: [
        // The agent of the README's "Use it from Swift": one in-process tool, a typed answer.
        .executableTarget(name: "ReadmeAgent", dependencies: [trailheadProduct], path: "ReadmeAgent"),
        // The seed's trip planner (Apple's Foundation Models code-along), ported.
        .executableTarget(name: "TripPlannerExample", dependencies: [trailheadProduct], path: "TripPlanner"),
        // Another domain: a meeting slot from contacts and calendar plugins, and an invitation.
        .executableTarget(name: "MeetingScheduler", dependencies: [trailheadProduct], path: "MeetingScheduler"),
        // Foundation Models 27's model protocol: capabilities, usage, its errors, the transcript's policy.
        .executableTarget(name: "FoundationModels27", dependencies: [trailheadProduct], path: "FoundationModels27"),
    ],
    swiftLanguageModes: [.v6]
)
