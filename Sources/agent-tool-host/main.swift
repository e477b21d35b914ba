import Foundation
import TrailheadTools

// `agent-tool-host Plugins/libX.so`: one plugin served as an MCP stdio server (see ToolHostServer).
exit(ToolHostServer.main(Array(CommandLine.arguments.dropFirst())))
