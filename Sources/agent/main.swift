import Foundation
import TrailheadCLI

exit(AgentCommand.main(CommandLine.arguments))
