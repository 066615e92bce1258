/// A parsed template: text, references and directives, with where each came from for errors.
/// ``VTLCompiler`` turns it into what renders.
indirect enum VTLNode {
    case text(String)
    /// `$x.y`, printed; `quiet` (`$!x`) prints nothing for a null, `source` is printed instead
    /// for a non-quiet null, as Velocity does.
    case reference(VTLReference, quiet: Bool, source: String)
    /// `#set($x = ...)`, `#set($map.key = ...)`.
    case set(VTLReference, VTLExpression, VTLPosition)
    case conditional([(condition: VTLExpression, body: [VTLNode])], otherwise: [VTLNode]?)
    /// `readsScope`: the body names `$foreach` or `$velocityCount`.
    case loop(variable: VTLVariable, over: VTLExpression, body: [VTLNode], VTLPosition, readsScope: Bool)
    case breakLoop
    /// `#define($name) ... #end`: `$name` renders the body when referenced.
    case define(VTLVariable, [VTLNode])
    /// `#name(arguments)` of a `#macro`; `source` is printed when no macro has the name.
    case macroCall(String, [VTLExpression], source: String, VTLPosition)
    /// `#noescape ... #end`: the body as it is (nothing is escaped here anyway).
    case block([VTLNode])
    /// `#return` and `#return(value)`: ends the template; its value (as JSON) is the result.
    case returnValue(VTLExpression?)
    case stop
}

/// `#macro(name $a $b) ... #end`: the parameters' names (without `$`) and the body.
struct VTLMacro {
    var parameters: [VTLVariable]
    var body: [VTLNode]
}

/// `$name` followed by properties, method calls and indexes.
struct VTLReference {
    enum Segment {
        case property(String)
        case method(VTLMethodName, [VTLExpression])
        case index(VTLExpression)
    }

    let variable: VTLVariable
    let path: [Segment]
    let position: VTLPosition
}

indirect enum VTLExpression {
    case literal(VTLValue)
    /// A double-quoted string: its references and `$!{}` parts interpolated.
    case interpolated([VTLNode])
    case list([VTLExpression])
    case map([(key: VTLExpression, value: VTLExpression)])
    /// `[a..b]`, inclusive, counting down when `b < a`.
    case range(VTLExpression, VTLExpression)
    case reference(VTLReference)
    case not(VTLExpression)
    case negate(VTLExpression)
    case binary(VTLOperator, VTLExpression, VTLExpression, VTLPosition)
}

enum VTLOperator {
    case or, and, equal, notEqual, less, lessOrEqual, greater, greaterOrEqual, plus, minus, times, divide, remainder
}

/// A line and column (both from 1) in a template.
public struct VTLPosition: Sendable, Equatable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column (characters into the line), from 1.
    public var column: Int

    /// The position at `line` and `column`, both from 1.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `line 3, column 7`.
    public var description: String { "line \(line), column \(column)" }
}

/// A template that cannot be parsed or run: where, and why.
public struct VTLError: Error, Equatable, CustomStringConvertible {
    /// The template's name (`Query.getPost.req.vtl`).
    public var template: String
    /// Where in the template, when the error has a place.
    public var position: VTLPosition?
    /// What is wrong, and where possible how to fix it.
    public var message: String

    /// `Query.getPost.req.vtl line 3, column 7: message`.
    public var description: String {
        "\(template)\(position.map { " \($0)" } ?? ""): \(message)"
    }
}
