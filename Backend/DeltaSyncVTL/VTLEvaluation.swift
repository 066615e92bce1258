import Foundation
import OrderedCollections

/// One rendering of a template: the variables, the output, and the limits' counters.
final class VTLEvaluation {
    /// How a directive leaves the nodes it runs in.
    enum Control: Error {
        case breakLoop
        case stop
        case returned(VTLValue?)
    }

    let template: String
    /// The variables, `#define`d blocks and macro frames.
    var store: VTLVariableStore
    let macros: [String: VTLMacro]
    let limits: VTLLimits
    let runtime: VTLRuntime
    var output = ""
    /// Characters written, counted as they are (a String's `count` walks it).
    private var written = 0
    var appendedErrors: [VTLRaisedError] = []
    var extensionCalls: [VTLExtensionCall] = []
    var logLines: [VTLLogLine] = []
    private var steps = 0
    private var depth = 0

    init(template: String, variables: VTLVariableStore, macros: [String: VTLMacro], limits: VTLLimits, runtime: VTLRuntime) {
        self.template = template
        self.store = variables
        self.macros = macros
        self.limits = limits
        self.runtime = runtime
    }

    func run(_ nodes: [VTLNode]) throws {
        for node in nodes { try run(node) }
    }

    func run(_ node: VTLNode) throws {
        try step(nil)
        switch node {
        case .text(let text):
            try write(text)
        case .reference(let reference, let quiet, let source):
            let value = try evaluate(reference)
            if value.isNull {
                if !quiet { try write(source) }
            } else {
                try write(value.rendered)
            }
        case .set(let target, let expression, _):
            let value = try evaluate(expression)
            // Velocity 1.7: a null right-hand side leaves the target as it was.
            if value.isNull { return }
            try assign(value, to: target)
        case .define(let name, let body):
            define(name, body)
        case .macroCall(let name, let arguments, let source, let position):
            guard let macro = macros[name] else { return try write(source) }
            try call(macro, named: name, with: arguments, at: position)
        case .block(let body):
            try run(body)
        case .conditional(let branches, let otherwise):
            for branch in branches where try evaluate(branch.condition).isTrue {
                return try nested { try run(branch.body) }
            }
            if let otherwise { try nested { try run(otherwise) } }
        case .loop(let variable, let collection, let body, let position):
            try loop(variable, over: try evaluate(collection), body: body, at: position)
        case .breakLoop:
            throw Control.breakLoop
        case .returnValue(let expression):
            throw Control.returned(try expression.map(evaluate))
        case .stop:
            throw Control.stop
        }
    }

    // MARK: - References

    func evaluate(_ reference: VTLReference) throws -> VTLValue {
        var path = reference.path[...]
        var value: VTLValue
        let bound = try lookup(reference.variable)
        if reference.builtin == .util, bound == nil, let function = reference.utilFunction,
            case .method(_, let argumentExpressions) = path[function.call] {
            path = path.dropFirst(function.call + 1)
            value = try VTLUtil.call(function.name, try argumentExpressions.map(evaluate), in: self, at: reference.position)
        } else if reference.builtin == .util, bound == nil {
            let namespace = path.map { if case .property(let name) = $0 { name } else { "" } }.prefix { !$0.isEmpty }
            throw failure("$util.\(namespace.joined(separator: ".")) is not a function; call one, as $util.toJson(...)", at: reference.position)
        } else if reference.builtin == .extensions, bound == nil, case .method(let name, let argumentExpressions)? = path.first {
            path = path.dropFirst()
            value = try VTLExtensions.call(name.text, try argumentExpressions.map(evaluate), in: self, at: reference.position)
        } else {
            value = bound ?? .null
        }
        for segment in path {
            try step(reference.position)
            switch segment {
            case .property(let name):
                value = try VTLMethods.property(name, of: value, evaluation: self, at: reference.position)
            case .method(let name, let argumentExpressions):
                let arguments = try argumentExpressions.map(evaluate)
                value = try VTLMethods.call(name, on: value, arguments, evaluation: self, at: reference.position)
            case .index(let expression):
                value = try VTLMethods.element(try evaluate(expression), of: value, evaluation: self, at: reference.position)
            }
        }
        return value
    }

    private func assign(_ value: VTLValue, to target: VTLReference) throws {
        guard let last = target.path.last else {
            return bind(target.variable, to: value)
        }
        let owner = try evaluate(VTLReference(variable: target.variable, path: Array(target.path.dropLast()), position: target.position))
        switch (owner, last) {
        case (.map(let map), .property(let key)):
            map.entries[key] = value
        case (.map(let map), .index(let expression)):
            map.entries[try evaluate(expression).rendered] = value
        case (.list(let list), .index(let expression)):
            guard case .int(let position) = try evaluate(expression), list.items.indices.contains(position) else {
                throw failure("#set to a list index outside the list", at: target.position)
            }
            list.items[position] = value
        default:
            throw failure("#set cannot set a member of a \(owner.typeName)", at: target.position)
        }
    }

    // MARK: - Expressions

    func evaluate(_ expression: VTLExpression) throws -> VTLValue {
        try step(nil)
        switch expression {
        case .literal(let value):
            return value
        case .interpolated(let parts):
            let saved = output
            output = ""
            defer { output = saved }
            try run(parts)
            return .string(output)
        case .list(let items):
            return try nested { .list(VTLList(try items.map(evaluate))) }
        case .map(let entries):
            return try nested {
                var map = OrderedDictionary<String, VTLValue>()
                for entry in entries { map[try evaluate(entry.key).rendered] = try evaluate(entry.value) }
                return .map(VTLMap(map))
            }
        case .range(let first, let last):
            guard case .int(let from) = try evaluate(first), case .int(let to) = try evaluate(last) else {
                throw failure("a range [a..b] needs whole numbers", at: nil)
            }
            guard abs(to - from) < limits.iterationsPerLoop * 10 else { throw failure("the range [\(from)..\(to)] is too long", at: nil) }
            let values = from <= to ? Array(from...to) : Array((to...from).reversed())
            return .list(VTLList(values.map(VTLValue.int)))
        case .reference(let reference):
            return try evaluate(reference)
        case .not(let inner):
            return .bool(!(try evaluate(inner).isTrue))
        case .negate(let inner):
            switch try evaluate(inner) {
            case .int(let value): return .int(0 &- value)
            case .double(let value): return .double(-value)
            case let other: throw failure("cannot negate a \(other.typeName)", at: nil)
            }
        case .binary(let op, let left, let right, let position):
            return try binary(op, left, right, at: position)
        }
    }

    private func binary(_ op: VTLOperator, _ leftExpression: VTLExpression, _ rightExpression: VTLExpression, at position: VTLPosition) throws -> VTLValue {
        switch op {
        case .or: return .bool(try evaluate(leftExpression).isTrue || evaluate(rightExpression).isTrue)
        case .and: return .bool(try evaluate(leftExpression).isTrue && evaluate(rightExpression).isTrue)
        default: break
        }
        let left = try evaluate(leftExpression)
        let right = try evaluate(rightExpression)
        switch op {
        case .equal: return .bool(Self.equals(left, right))
        case .notEqual: return .bool(!Self.equals(left, right))
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let (a, b) = Self.numbers(left, right) else {
                throw failure("cannot compare a \(left.typeName) with a \(right.typeName)", at: position)
            }
            switch op {
            case .less: return .bool(a < b)
            case .lessOrEqual: return .bool(a <= b)
            case .greater: return .bool(a > b)
            default: return .bool(a >= b)
            }
        case .plus:
            if case .string = left { return .string(left.rendered + right.rendered) }
            if case .string = right { return .string(left.rendered + right.rendered) }
            return try arithmetic(op, left, right, at: position)
        default:
            return try arithmetic(op, left, right, at: position)
        }
    }

    /// Integer with integer stays integer (`/` truncates, as Java); a decimal makes decimal; a
    /// division by zero is null.
    private func arithmetic(_ op: VTLOperator, _ left: VTLValue, _ right: VTLValue, at position: VTLPosition) throws -> VTLValue {
        if case .int(let a) = left, case .int(let b) = right {
            switch op {
            case .plus: return .int(a &+ b)
            case .minus: return .int(a &- b)
            case .times: return .int(a &* b)
            case .divide: return b == 0 ? .null : .int(a / b)
            default: return b == 0 ? .null : .int(a % b)
            }
        }
        guard let (a, b) = Self.numbers(left, right) else {
            throw failure("cannot do arithmetic with a \(left.typeName) and a \(right.typeName)", at: position)
        }
        switch op {
        case .plus: return .double(a + b)
        case .minus: return .double(a - b)
        case .times: return .double(a * b)
        case .divide: return b == 0 ? .null : .double(a / b)
        default: return b == 0 ? .null : .double(a.truncatingRemainder(dividingBy: b))
        }
    }

    static func numbers(_ left: VTLValue, _ right: VTLValue) -> (Double, Double)? {
        func number(_ value: VTLValue) -> Double? {
            switch value {
            case .int(let value): return Double(value)
            case .double(let value): return value
            default: return nil
            }
        }
        guard let a = number(left), let b = number(right) else { return nil }
        return (a, b)
    }

    /// Velocity's `==`: numbers by value, values of one kind by `equals`, values of different
    /// kinds by their text.
    static func equals(_ left: VTLValue, _ right: VTLValue) -> Bool {
        if let (a, b) = numbers(left, right) { return a == b }
        switch (left, right) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.bool, .bool), (.string, .string), (.list, .list), (.map, .map): return left == right
        default: return left.rendered == right.rendered
        }
    }

    // MARK: - Limits and errors

    func write(_ text: String) throws {
        output += text
        written += VTLCharacterCount.of(text)
        guard written <= limits.outputCharacters else {
            throw failure("the template printed more than \(limits.outputCharacters) characters", at: nil)
        }
    }

    private func step(_ position: VTLPosition?) throws {
        steps += 1
        guard steps <= limits.steps else { throw failure("the template ran more than \(limits.steps) steps", at: position) }
    }

    func nested<T>(_ body: () throws -> T) throws -> T {
        depth += 1
        defer { depth -= 1 }
        guard depth <= limits.depth else { throw failure("the template nests deeper than \(limits.depth) levels", at: nil) }
        return try body()
    }

    func failure(_ message: String, at position: VTLPosition?) -> VTLError {
        VTLError(template: template, position: position, message: message)
    }
}
