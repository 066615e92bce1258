/// One rendering of a template: the variables, the output, what the template recorded, and
/// the limits' counters. A value the compiled template passes `inout` down its calls, so the
/// state is reached without a class's reference counting and dynamic exclusivity checks.
struct VTLEvaluation {
    /// How a directive leaves the nodes it runs in.
    enum Control: Error {
        case breakLoop
        case stop
        case returned(VTLValue?)
    }

    let template: String
    /// The variables, `#define`d blocks and macro frames.
    var store: VTLVariableStore
    /// The template's `#macro`s, by the index the compiler gave each name.
    let macros: [VTLCompiledMacro]
    let limits: VTLLimits
    let runtime: VTLRuntime
    /// The output's UTF-8: bytes append with less work than a String's characters, and the
    /// rendering makes them a String once.
    var output: [UInt8] = []
    /// UTF-8 bytes written. Text a string literal interpolates counts too, which bounds strings
    /// built up in loops.
    private(set) var written = 0
    var appendedErrors: [VTLRaisedError] = []
    var extensionCalls: [VTLExtensionCall] = []
    var logLines: [VTLLogLine] = []
    var responseHeaders: [VTLResponseHeader] = []
    /// Bytes of every response header added, names and values, against AppSync's 4 KB.
    var responseHeaderBytes = 0
    private var steps = 0
    private var depth = 0

    init(template: String, variables: VTLVariableStore, macros: [VTLCompiledMacro], limits: VTLLimits, runtime: VTLRuntime, outputCapacity: Int) {
        self.template = template
        self.store = variables
        self.macros = macros
        self.limits = limits
        self.runtime = runtime
        output.reserveCapacity(outputCapacity)
    }

    // MARK: - Output

    mutating func write(_ text: String) throws {
        let utf8 = text.utf8
        if utf8.isEmpty { return }
        // Copied as one block where the string has one, as it mostly does.
        let copied: Void? = utf8.withContiguousStorageIfAvailable { output.append(contentsOf: $0) }
        if copied == nil { output.append(contentsOf: utf8) }
        try count(utf8.count)
    }

    /// The template's own text, as the compiler kept its UTF-8.
    mutating func write(_ utf8: [UInt8]) throws {
        output.append(contentsOf: utf8)
        try count(utf8.count)
    }

    /// `bytes` more written, into the output or into an interpolated string.
    @inline(__always)
    mutating func count(_ bytes: Int) throws {
        written += bytes
        guard written <= limits.outputBytes else { throw outputFailure() }
    }

    // MARK: - Limits and errors

    /// One more node or expression evaluated.
    @inline(__always)
    mutating func step(_ position: VTLPosition? = nil) throws {
        steps += 1
        guard steps <= limits.steps else { throw stepFailure(position) }
    }

    /// One level deeper: a loop, a branch, a macro, a data structure. ``leave()`` undoes it.
    @inline(__always)
    mutating func enter() throws {
        depth += 1
        guard depth <= limits.depth else {
            depth -= 1
            throw failure("the template nests deeper than \(limits.depth) levels", at: nil)
        }
    }

    @inline(__always)
    mutating func leave() { depth -= 1 }

    func failure(_ message: String, at position: VTLPosition?) -> VTLError {
        VTLError(template: template, position: position, message: message)
    }

    private func outputFailure() -> VTLError {
        failure("the template printed more than \(limits.outputBytes) bytes", at: nil)
    }

    private func stepFailure(_ position: VTLPosition?) -> VTLError {
        failure("the template ran more than \(limits.steps) steps", at: position)
    }
}
