/// One step of a reference's path after its variable: `.name`, `.method(...)`, `[key]`.
class VTLCompiledSegment {
    func apply(to value: VTLValue, _ e: inout VTLEvaluation, at position: VTLPosition) throws -> VTLValue {
        preconditionFailure("\(Self.self) does not apply")
    }

    /// `value` through `segments`, a step each.
    static func apply(_ segments: [VTLCompiledSegment], to value: VTLValue, _ e: inout VTLEvaluation, at position: VTLPosition) throws -> VTLValue {
        var value = value
        for segment in segments {
            try e.step(position)
            value = try segment.apply(to: value, &e, at: position)
        }
        return value
    }
}

/// A segment applied to what the expression before it gives: references compile to a chain
/// of these over their variable, so evaluating one walks the chain's constant properties.
final class VTLSegmentExpression: VTLCompiledExpression {
    let target: VTLCompiledExpression
    let segment: VTLCompiledSegment
    let position: VTLPosition

    init(_ target: VTLCompiledExpression, _ segment: VTLCompiledSegment, at position: VTLPosition) {
        self.target = target
        self.segment = segment
        self.position = position
    }

    override func evaluate(_ e: inout VTLEvaluation) throws -> VTLValue {
        let value = try target.evaluate(&e)
        try e.step(position)
        return try segment.apply(to: value, &e, at: position)
    }
}

/// `.name`: a map's entry (null when absent), else the getter `name()`, `getName()` or
/// `isName()`, resolved when the template is parsed.
final class VTLPropertySegment: VTLCompiledSegment {
    let name: String
    /// `name`, `getName`, `isName`, as method names.
    let getters: [VTLMethodName]

    init(_ name: String) {
        self.name = name
        let capitalized = name.prefix(1).uppercased() + name.dropFirst()
        getters = [name, "get" + capitalized, "is" + capitalized].map(VTLMethodName.init)
    }

    override func apply(to value: VTLValue, _ e: inout VTLEvaluation, at position: VTLPosition) throws -> VTLValue {
        switch value {
        case .map(let map): return map.value(forKey: name) ?? .null
        case .null: return .null
        default:
            for getter in getters where VTLMethods.isGetter(getter, of: value) {
                return try VTLMethods.call(getter, on: value, [], &e, at: position)
            }
            return .null
        }
    }
}

/// `.method(arguments)`: a Java method of the value (``VTLMethods``).
final class VTLMethodSegment: VTLCompiledSegment {
    let method: VTLMethodName
    let arguments: VTLCodeList<VTLCompiledExpression>

    init(_ method: VTLMethodName, _ arguments: [VTLCompiledExpression]) {
        self.method = method
        self.arguments = VTLCodeList(arguments)
    }

    override func apply(to value: VTLValue, _ e: inout VTLEvaluation, at position: VTLPosition) throws -> VTLValue {
        let values = try VTLArguments.evaluate(arguments, &e)
        return try VTLMethods.call(method, on: value, values, &e, at: position)
    }
}

/// `[key]`: a list's item or a map's entry.
final class VTLIndexSegment: VTLCompiledSegment {
    let key: VTLCompiledExpression

    init(_ key: VTLCompiledExpression) {
        self.key = key
    }

    override func apply(to value: VTLValue, _ e: inout VTLEvaluation, at position: VTLPosition) throws -> VTLValue {
        try VTLMethods.element(try key.value(in: &e), of: value, &e, at: position)
    }
}

/// `$x`: the variable's value, null when nothing has the name.
final class VTLVariableExpression: VTLCompiledExpression {
    let slot: Int

    init(slot: Int) {
        self.slot = slot
    }

    override func evaluate(_ e: inout VTLEvaluation) throws -> VTLValue {
        try e.lookup(slot) ?? .null
    }
}

/// `$x.name`, the most common path: the variable and its property in one step of the chain.
final class VTLVariablePropertyExpression: VTLCompiledExpression {
    let slot: Int
    let property: VTLPropertySegment
    let position: VTLPosition

    init(slot: Int, property: VTLPropertySegment, position: VTLPosition) {
        self.slot = slot
        self.property = property
        self.position = position
    }

    override func evaluate(_ e: inout VTLEvaluation) throws -> VTLValue {
        let value = try e.lookup(slot) ?? .null
        try e.step(position)
        return try property.apply(to: value, &e, at: position)
    }
}

/// `$util.a.b(arguments)`: the function, found when the template was parsed (`nil` for a
/// name `$util` lacks, which fails when it runs). A template or embedder that binds `$util`
/// itself reads its variable instead, through the same path. The rest of the path is a
/// chain of ``VTLSegmentExpression``s over this one.
final class VTLUtilCallExpression: VTLCompiledExpression {
    let slot: Int
    let name: String
    let function: VTLUtilFunction
    let arguments: VTLCodeList<VTLCompiledExpression>
    /// The path up to the call, for a bound `$util`.
    let segments: [VTLCompiledSegment]
    let position: VTLPosition

    init(slot: Int, name: String, arguments: VTLCodeList<VTLCompiledExpression>, segments: [VTLCompiledSegment], position: VTLPosition) {
        self.slot = slot
        self.name = name
        // A name `$util` lacks fails when it runs, after its arguments, as any call fails.
        function = VTLUtil.functions[name] ?? { _, _ in throw VTLUtilFailure(.whole, "$util.\(name) is not a function DeltaSync has") }
        self.arguments = arguments
        self.segments = segments
        self.position = position
    }

    override func evaluate(_ e: inout VTLEvaluation) throws -> VTLValue {
        if let bound = try e.lookup(slot) {
            return try VTLCompiledSegment.apply(segments, to: bound, &e, at: position)
        }
        let values = try VTLArguments.evaluate(arguments, &e)
        do {
            return try function(&e, VTLUtilCall(arguments: values, position: position))
        } catch let failure as VTLUtilFailure {
            throw e.failure(failure.message(for: name), at: position)
        }
    }
}

/// `$util.qr(x)` and `$util.quiet(x)`, which templates call around most of what they do:
/// `x` evaluated, and an empty string (a null would print the reference's own text), without
/// the general call's arguments and function. A bound `$util` takes the general call.
final class VTLQuietExpression: VTLCompiledExpression {
    let general: VTLUtilCallExpression
    let argument: VTLCompiledExpression

    init(_ general: VTLUtilCallExpression, argument: VTLCompiledExpression) {
        self.general = general
        self.argument = argument
    }

    override func evaluate(_ e: inout VTLEvaluation) throws -> VTLValue {
        if e.isBound(general.slot) { return try general.evaluate(&e) }
        _ = try argument.value(in: &e)
        return .string("")
    }
}

/// `$util.a.b` with no call: an error unless the template or embedder binds `$util`, whose
/// value the path's chain then reads.
final class VTLUtilNamespaceExpression: VTLCompiledExpression {
    let slot: Int
    let namespace: String
    let position: VTLPosition

    init(slot: Int, namespace: String, position: VTLPosition) {
        self.slot = slot
        self.namespace = namespace
        self.position = position
    }

    override func evaluate(_ e: inout VTLEvaluation) throws -> VTLValue {
        guard let bound = try e.lookup(slot) else {
            throw e.failure("$util.\(namespace) is not a function; call one, as $util.toJson(...)", at: position)
        }
        return bound
    }
}

/// `$extensions.name(arguments)`: recorded by ``VTLExtensions``, unless `$extensions` is bound.
final class VTLExtensionsCallExpression: VTLCompiledExpression {
    let slot: Int
    let name: String
    let arguments: VTLCodeList<VTLCompiledExpression>
    /// The call as a segment, for a bound `$extensions`.
    let segment: VTLCompiledSegment
    let position: VTLPosition

    init(slot: Int, name: String, arguments: VTLCodeList<VTLCompiledExpression>, segment: VTLCompiledSegment, position: VTLPosition) {
        self.slot = slot
        self.name = name
        self.arguments = arguments
        self.segment = segment
        self.position = position
    }

    override func evaluate(_ e: inout VTLEvaluation) throws -> VTLValue {
        if let bound = try e.lookup(slot) {
            return try VTLCompiledSegment.apply([segment], to: bound, &e, at: position)
        }
        let values = try VTLArguments.evaluate(arguments, &e)
        return try VTLExtensions.call(name, values, &e, at: position)
    }
}
