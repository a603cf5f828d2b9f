// Commands whose implementation lands with the management issue.
enum KeysCommand {
    static func run(_ args: [String]) -> Int32 {
        printError("biqli-edge keys: not available yet")
        return 1
    }
}

enum ApplyCommand {
    static func run(_ args: [String]) -> Int32 {
        printError("biqli-edge apply: not available yet")
        return 1
    }
}

enum CheckCommand {
    static func run(_ args: [String]) -> Int32 {
        printError("biqli-edge check: not available yet")
        return 1
    }
}
