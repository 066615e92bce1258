/// How a function's process ended, worded as Lambda words it in `Runtime.ExitError`
/// ("exit status 1", "signal: killed").
enum ProcessExit: Sendable, Equatable, CustomStringConvertible {
    case exited(code: Int32)
    case signalled(Int32)
    /// Someone else reaped it (a SIGCHLD handler elsewhere in the server), so the status is lost.
    case unknown

    /// Decodes a `waitpid` status; the layout is the same on Linux and Darwin, whose
    /// WIFEXITED-style macros Swift cannot import.
    init(waitStatus status: Int32) {
        let signal = status & 0x7f
        self = signal == 0 ? .exited(code: (status >> 8) & 0xff) : .signalled(signal)
    }

    var description: String {
        switch self {
        case .exited(let code): "exit status \(code)"
        case .signalled(let signal): "signal: \(Self.signalNames[signal] ?? "\(signal)")"
        case .unknown: "unknown exit status"
        }
    }

    private static let signalNames: [Int32: String] = [
        1: "hangup", 2: "interrupt", 3: "quit", 4: "illegal instruction", 6: "aborted",
        8: "floating point exception", 9: "killed", 11: "segmentation fault", 13: "broken pipe", 15: "terminated",
    ]
}
