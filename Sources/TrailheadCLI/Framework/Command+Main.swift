extension Command {
    /// Runs this command as the root of a tool: parses `commandLine` (its first word, the
    /// executable, is skipped) into the typed properties of the command it names, runs it (the one
    /// bridge to `async`), and returns the exit status. Never traps on bad input.
    ///
    /// - Parameter version: what `--version` prints after the tool's name.
    public static func main(
        _ commandLine: [String], version: String, context: CommandContext = .process()
    ) -> Int32 {
        let toolName = configuration.name
        switch ArgumentParser(root: self).parse(Array(commandLine.dropFirst())) {
        case .success(.version):
            context.stdout.line("\(toolName) \(version)")
            return ExitCode.success.rawValue
        case .success(.help(let path)):
            context.stdout.write(Usage(path: path).help)
            return ExitCode.success.rawValue
        case .failure(let failure):
            return reportUsage(failure.error, path: failure.path, context: context)
        case .success(.run(let path, let arguments)):
            let leaf = path.last!
            do {
                let command = try leaf.parse(arguments)
                return try runAsync(cancellingOnInterrupt: leaf.configuration.cancelsOnInterrupt) {
                    try await command.run(context: context)
                }.rawValue
            } catch let error as UsageError {
                return reportUsage(error, path: path, context: context)
            } catch let error as CommandError {
                context.stderr.line("\(toolName): \(error.message)")
                return error.exitCode.rawValue
            } catch {
                context.stderr.line("\(toolName): error: \(error)")
                return ExitCode.failure.rawValue
            }
        }
    }

    private static func reportUsage(_ error: UsageError, path: [any Command.Type], context: CommandContext) -> Int32 {
        context.stderr.write("\(configuration.name): \(error.message)\n\(Usage(path: path).short)")
        return ExitCode.usage.rawValue
    }
}
