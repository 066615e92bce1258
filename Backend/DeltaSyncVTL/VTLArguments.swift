/// The values of a call's arguments, in order: up to two held inline, so a call (most have
/// one or two arguments) does not allocate an array for them.
struct VTLArguments: RandomAccessCollection, ExpressibleByArrayLiteral {
    private let first: VTLValue
    private let second: VTLValue
    /// All of them, when there are more than two.
    private let all: [VTLValue]
    let count: Int

    init(arrayLiteral values: VTLValue...) {
        self.init(values)
    }

    init(_ values: [VTLValue]) {
        count = values.count
        first = values.count == 1 || values.count == 2 ? values[0] : .null
        second = values.count == 2 ? values[1] : .null
        all = values.count > 2 ? values : []
    }

    private init(_ first: VTLValue, _ second: VTLValue, count: Int) {
        self.first = first
        self.second = second
        all = []
        self.count = count
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> VTLValue {
        precondition(position >= 0 && position < count, "argument \(position) of \(count)")
        if count > 2 { return all[position] }
        return position == 0 ? first : second
    }

    /// The values of `expressions`, evaluated in order.
    static func evaluate(_ expressions: VTLCodeList<VTLCompiledExpression>, _ e: inout VTLEvaluation) throws -> VTLArguments {
        switch expressions.count {
        case 0:
            return VTLArguments(.null, .null, count: 0)
        case 1:
            return VTLArguments(try expressions.with(0) { try $0.value(in: &e) }, .null, count: 1)
        case 2:
            let first = try expressions.with(0) { try $0.value(in: &e) }
            return VTLArguments(first, try expressions.with(1) { try $0.value(in: &e) }, count: 2)
        default:
            var values: [VTLValue] = []
            values.reserveCapacity(expressions.count)
            try expressions.forEach { values.append(try $0.value(in: &e)) }
            return VTLArguments(values)
        }
    }
}
