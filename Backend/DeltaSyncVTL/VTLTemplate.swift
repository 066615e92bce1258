import DeltaSyncCore

/// A Velocity template as AppSync runs its resolver mapping templates: parsed once, rendered
/// with a context of variables (`$ctx`, `$context`, ...), `$util` built in.
///
/// ```swift
/// let template = try VTLTemplate(#"{"id": $util.toJson($ctx.args.id)}"#, name: "Query.getPost.req.vtl")
/// let context = VTLValue(json: ["args": ["id": "p1"]])
/// let rendering = try template.render(["ctx": context, "context": context])
/// rendering.output   // {"id": "p1"}
/// ```
///
/// Directives: `#set`, `#if`/`#elseif`/`#else`, `#foreach`, `#break`, `#return`, `#stop`,
/// `#define`, `#macro` (and calls `#name(...)`), `#noescape`, comments and `#[[raw]]#`.
/// `$util` has AppSync's documented functions except `toElasticsearchQueryDSL`; `$extensions`
/// calls are recorded in ``VTLRendering/extensions``, response headers `$util.http` adds in
/// ``VTLRendering/responseHeaders``.
/// Not: `#include`, `#parse`, `#evaluate` (AppSync templates are single files).
public struct VTLTemplate: @unchecked Sendable {
    // @unchecked: the compiled template is classes whose properties are constants and whose
    // literals are scalars; lists and maps are made anew on every rendering, so nothing
    // mutable is shared between renderings.
    let body: VTLCompiledBlock
    let macros: [VTLCompiledMacro]
    let symbols: VTLSymbols
    /// Whether the template has a `#define`.
    private let definesBlocks: Bool
    /// The template's length, which the output of most templates is near: the output's
    /// first capacity.
    private let outputCapacity: Int
    /// The name errors carry (`Mutation.createPost.req.vtl`).
    public let name: String

    /// - Throws: ``VTLError`` with the line and column of what cannot be parsed.
    public init(_ text: String, name: String) throws(VTLError) {
        var parser = VTLParser(text, name: name)
        let nodes = try parser.parse()
        (body, macros) = VTLCompiler.compile(nodes, parser: parser)
        symbols = parser.symbols
        definesBlocks = parser.definesBlocks
        outputCapacity = text.utf8.count
        self.name = name
    }

    /// Renders the template.
    ///
    /// - Parameters:
    ///   - variables: the context's variables by name, without `$`.
    ///   - limits: how far a template may go before it is stopped with an error.
    ///   - runtime: the request's authorization type, the log sink and the clock.
    /// - Throws: ``VTLError`` for a template that fails (a limit, a method that does not
    ///   exist, a type that does not fit), ``VTLRaisedError`` for `$util.error(...)`,
    ///   `$util.validate(false, ...)` and `$util.unauthorized()`.
    public func render(_ variables: [String: VTLValue], limits: VTLLimits = VTLLimits(), runtime: VTLRuntime = VTLRuntime()) throws -> VTLRendering {
        var evaluation = VTLEvaluation(
            template: name, variables: VTLVariableStore(symbols: symbols, variables: variables, definesBlocks: definesBlocks), macros: macros, limits: limits,
            runtime: runtime, outputCapacity: outputCapacity)
        var returned: VTLValue??
        do {
            try body.run(&evaluation)
        } catch VTLEvaluation.Control.returned(let value) {
            returned = .some(value)
        } catch VTLEvaluation.Control.stop {
        } catch VTLEvaluation.Control.breakLoop {
        }
        return VTLRendering(
            output: String(decoding: evaluation.output, as: UTF8.self), returned: returned, appendedErrors: evaluation.appendedErrors,
            extensions: evaluation.extensionCalls, logLines: evaluation.logLines, responseHeaders: evaluation.responseHeaders)
    }
}

/// What a rendering produced.
public struct VTLRendering {
    /// The text the template printed.
    public var output: String
    /// `#return` ended the template: `.some(value)` with `#return(value)`, `.some(nil)` without
    /// one; `nil` when the template ran to its end.
    public var returned: VTLValue??
    /// `$util.appendError(...)` calls, in order.
    public var appendedErrors: [VTLRaisedError]
    /// `$extensions` calls, in order, for the resolver layer to apply.
    public var extensions: [VTLExtensionCall] = []
    /// `$util.log.*` lines, in order (also handed to ``VTLRuntime/log`` as they happen).
    public var logLines: [VTLLogLine] = []
    /// Headers `$util.http.addResponseHeader(s)` added, in the order first added, each with
    /// its latest value, for the host to set on the HTTP response.
    public var responseHeaders: [VTLResponseHeader] = []
}

/// A header a template added to the response with `$util.http.addResponseHeader(name, value)`
/// or `addResponseHeaders(map)`.
public struct VTLResponseHeader: Sendable, Equatable {
    /// The header's name, as the template wrote it.
    public var name: String
    /// The value's text: a string as it is, a number or boolean as Java prints it, a list or
    /// map as JSON.
    public var value: String

    /// A header `name: value`.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// `$util.error(...)`, `$util.appendError(...)`, `$util.validate(false, ...)` or
/// `$util.unauthorized()`: an error of the template's own.
public struct VTLRaisedError: Error {
    /// The error's message; for `unauthorized()` a placeholder the resolver layer replaces
    /// with AppSync's "Not Authorized to access <field> on type <Type>".
    public var message: String
    /// `errorType`: as given; `CustomTemplateException` for `validate` without one,
    /// `Unauthorized` for `unauthorized()`, `nil` for `error(message)`.
    public var errorType: String?
    /// `data`, null when not given.
    public var data: VTLValue
    /// `errorInfo`, null when not given.
    public var errorInfo: VTLValue
}

/// How far a template may go (AppSync's quotas where it has them).
public struct VTLLimits: Sendable {
    /// Iterations of one `#foreach` (AppSync: 1,000).
    public var iterationsPerLoop = 1000
    /// UTF-8 bytes of output (AppSync: 5 MB of evaluated template).
    public var outputBytes = 5 * 1024 * 1024
    /// Nodes and expressions evaluated in all, which bounds nested loops.
    public var steps = 2_000_000
    /// Nesting of loops, conditions and data structures.
    public var depth = 64

    /// AppSync's quotas, and DeltaSync's bounds where AppSync states none.
    public init() {}
}
