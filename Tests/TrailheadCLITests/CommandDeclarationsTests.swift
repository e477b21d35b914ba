@testable import TrailheadCLI
import TripPlanner
import XCTest

/// Every command of `agent`, as declared: the mistakes a declaration could make are caught here
/// rather than by a user (two options of one name, a property the parser cannot fill).
final class CommandDeclarationsTests: XCTestCase {
    /// Every command of the tree with its path (`agent model status`).
    private func commands(_ command: any Command.Type = AgentCommand.self, path: [String] = []) -> [(String, any Command.Type)] {
        let here = path + [command.configuration.name]
        return [(here.joined(separator: " "), command)] + command.configuration.subcommands.flatMap { commands($0, path: here) }
    }

    func testEveryCommandDeclaresDistinctNamesAndOnlyALastVariadic() {
        let all = commands()
        XCTAssertGreaterThan(all.count, 20)
        for (path, command) in all {
            let declared = command.declared
            let names = declared.options.map(\.name)
            XCTAssertEqual(Set(names).count, names.count, "\(path) declares an option twice: \(names)")
            XCTAssertTrue(names.allSatisfy { $0.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" } }, "\(path): \(names)")
            XCTAssertTrue(declared.positionals.dropLast().allSatisfy { !$0.isVariadic }, "\(path): only the last positional may be variadic")
            XCTAssertFalse(declared.options.contains { $0.help.isEmpty }, "\(path): every option has help")
        }
    }

    func testEveryCommandIsFilledFromAnEmptyCommandLineWithItsDefaults() throws {
        for (path, command) in commands() {
            XCTAssertNoThrow(try command.parse(ParsedArguments()), "\(path): a property that is not an @Option, @Flag, @Argument or @OptionGroup")
        }
        let plan = try PlanCommand.parse(ParsedArguments(positionalValues: ["LANDMARK": ["Kyoto"]]))
        XCTAssertEqual(plan.landmark, "Kyoto")
        XCTAssertEqual(plan.options.days, 3)
        XCTAssertEqual(plan.options.tools.names, ["poi", "calendar", "contacts"])
        XCTAssertEqual(plan.options.models.specifier, "local")
    }

    func testPlanDaysAreBoundByTheTripRequestsOneRange() throws {
        let words = ParsedArguments(optionValues: ["days": ["15"]], positionalValues: ["LANDMARK": ["Kyoto"]])
        XCTAssertThrowsError(try PlanCommand.parse(words)) { error in
            XCTAssertEqual(error as? UsageError, UsageError("--days must be an integer from 1 to 14, not '15'"))
        }
        // …and a request that comes another way (an eval file, the server) meets the same bound.
        XCTAssertEqual(TripRequest(landmark: "Kyoto", days: 15).problem, "a trip has from 1 to 14 days, not 15")
        XCTAssertNil(TripRequest(landmark: "Kyoto", days: TripRequest.dayRange.upperBound).problem)
    }
}
