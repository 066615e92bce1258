import OrderedCollections

/// An expression as the compiler leaves it (``VTLCompiler``): an object that evaluates itself,
/// operators and names resolved when the template was parsed.
class VTLCompiledExpression {
    /// The value, counted as one step of the template's ``VTLLimits/steps``.
    @inline(__always)
    final func value(in e: inout VTLEvaluation) throws -> VTLValue {
        try e.step()
        return try evaluate(&e)
    }

    /// The value, without counting a step (``value(in:)`` counts it).
    func evaluate(_ e: inout VTLEvaluation) throws -> VTLValue {
        preconditionFailure("\(Self.self) does not evaluate")
    }
}

/// `1`, `2.5`, `"text"`, `true`, `null`: scalars only, so one value serves every rendering.
final class VTLLiteralExpression: VTLCompiledExpression {
    let literal: VTLValue

    init(_ literal: VTLValue) {
        self.literal = literal
    }

    override func evaluate(_ e: inout VTLEvaluation) throws -> VTLValue { literal }
}

/// A double-quoted string with references: its parts appended to one string. Interpolated
/// text counts toward ``VTLLimits/outputBytes``, as printed text does.
final class VTLInterpolation: VTLCompiledExpression {
    /// Text or a reference: classes rather than an enum, so running one copies no payload.
    class Part {
        func append(to text: inout String, _ e: inout VTLEvaluation) throws {}
    }

    final class TextPart: Part {
        let text: String

        init(_ text: String) {
            self.text = text
        }

        override func append(to text: inout String, _ e: inout VTLEvaluation) throws {
            text += self.text
            try e.count(self.text.utf8.count)
        }
    }

    /// A reference, printed as in text: its own text (`source`) for a null unless quiet.
    final class ReferencePart: Part {
        let reference: VTLCompiledExpression
        let quiet: Bool
        let source: TextPart

        init(_ reference: VTLCompiledExpression, quiet: Bool, source: String) {
            self.reference = reference
            self.quiet = quiet
            self.source = TextPart(source)
        }

        override func append(to text: inout String, _ e: inout VTLEvaluation) throws {
            switch try reference.evaluate(&e) {
            case .null:
                if !quiet { try source.append(to: &text, &e) }
            case .string(let value):
                text += value
                try e.count(value.utf8.count)
            case let value:
                let rendered = value.rendered
                text += rendered
                try e.count(rendered.utf8.count)
            }
        }
    }

    let parts: VTLCodeList<Part>

    init(_ parts: [Part]) {
        self.parts = VTLCodeList(parts)
    }

    override func evaluate(_ e: inout VTLEvaluation) throws -> VTLValue {
        var result = ""
        try parts.forEach { part in
            try e.step()
            try part.append(to: &result, &e)
        }
        return .string(result)
    }
}

/// `[a, b]`: a new list each time.
final class VTLListLiteral: VTLCompiledExpression {
    let items: VTLCodeList<VTLCompiledExpression>

    init(_ items: [VTLCompiledExpression]) {
        self.items = VTLCodeList(items)
    }

    override func evaluate(_ e: inout VTLEvaluation) throws -> VTLValue {
        try e.enter()
        defer { e.leave() }
        var values: [VTLValue] = []
        values.reserveCapacity(items.count)
        try items.forEach { values.append(try $0.value(in: &e)) }
        return .list(VTLList(values))
    }
}

/// `{"k": v}`: a new map each time, keys as their text.
final class VTLMapLiteral: VTLCompiledExpression {
    /// Keys and values in turn: key, value, key, value.
    let members: VTLCodeList<VTLCompiledExpression>

    init(keys: [VTLCompiledExpression], values: [VTLCompiledExpression]) {
        members = VTLCodeList(zip(keys, values).flatMap { [$0, $1] })
    }

    override func evaluate(_ e: inout VTLEvaluation) throws -> VTLValue {
        try e.enter()
        defer { e.leave() }
        // An empty literal is mostly a map the template fills (`#set($names = {})`).
        var entries = OrderedDictionary<String, VTLValue>(minimumCapacity: members.isEmpty ? 8 : members.count / 2)
        var key: String?
        try members.forEach { member in
            let value = try member.value(in: &e)
            if let name = key {
                entries[name] = value
                key = nil
            } else {
                key = value.rendered
            }
        }
        return .map(VTLMap(entries))
    }
}

/// `[a..b]`, inclusive, counting down when `b < a`.
final class VTLRangeExpression: VTLCompiledExpression {
    let first: VTLCompiledExpression
    let last: VTLCompiledExpression

    init(_ first: VTLCompiledExpression, _ last: VTLCompiledExpression) {
        self.first = first
        self.last = last
    }

    override func evaluate(_ e: inout VTLEvaluation) throws -> VTLValue {
        guard case .int(let from) = try first.value(in: &e), case .int(let to) = try last.value(in: &e) else {
            throw e.failure("a range [a..b] needs whole numbers", at: nil)
        }
        guard abs(to - from) < e.limits.iterationsPerLoop * 10 else { throw e.failure("the range [\(from)..\(to)] is too long", at: nil) }
        let values = from <= to ? Array(from...to) : Array((to...from).reversed())
        return .list(VTLList(values.map(VTLValue.int)))
    }
}

/// `!x`, `not x`.
final class VTLNotExpression: VTLCompiledExpression {
    let operand: VTLCompiledExpression

    init(_ operand: VTLCompiledExpression) {
        self.operand = operand
    }

    override func evaluate(_ e: inout VTLEvaluation) throws -> VTLValue {
        .bool(!(try operand.value(in: &e).isTrue))
    }
}

/// `-x`.
final class VTLNegateExpression: VTLCompiledExpression {
    let operand: VTLCompiledExpression

    init(_ operand: VTLCompiledExpression) {
        self.operand = operand
    }

    override func evaluate(_ e: inout VTLEvaluation) throws -> VTLValue {
        switch try operand.value(in: &e) {
        case .int(let value): return .int(0 &- value)
        case .double(let value): return .double(-value)
        case let other: throw e.failure("cannot negate a \(other.typeName)", at: nil)
        }
    }
}
