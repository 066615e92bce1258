/// A notification's payload on an instance channel (``PostgresInstanceChannel``), in one of three
/// forms, each starting with the sender's id and the number of its first message:
///
/// - `ORIGIN NUMBER i TEXT`: one message, inline;
/// - `ORIGIN FIRST m L1,L2,…,Lk TEXT1TEXT2…TEXTk`: k messages inline, numbered `FIRST` to
///   `FIRST+k-1`, message j being `Lj` UTF-8 bytes long;
/// - `ORIGIN NUMBER r ID`: one message, stored in `deltasync_messages` under `ID`.
///
/// ```swift
/// let payload = ChannelPayload("a1 7 m 2,3 hibye")
/// // payload?.first == 7, payload?.body == .inline(["hi", "bye"])
/// ```
struct ChannelPayload: Equatable {
    enum Body: Equatable {
        case inline([String])
        case stored(id: Int)
    }

    var origin: String
    /// The number of the first message.
    var first: Int
    var body: Body

    /// How many messages the payload carries.
    var count: Int {
        if case .inline(let texts) = body { return texts.count }
        return 1
    }

    init(origin: String, first: Int, body: Body) {
        self.origin = origin
        self.first = first
        self.body = body
    }

    /// `nil` when `payload` is not in one of the three forms.
    init?(_ payload: String) {
        let parts = payload.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, !parts[0].isEmpty, let first = Int(parts[1]) else { return nil }
        origin = String(parts[0])
        self.first = first
        switch parts[2] {
        case "i":
            body = .inline([String(parts[3])])
        case "r":
            guard let id = Int(parts[3]) else { return nil }
            body = .stored(id: id)
        case "m":
            let rest = parts[3]
            guard let space = rest.firstIndex(of: " ") else { return nil }
            let lengths = rest[..<space].split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
            let bytes = Array(rest[rest.index(after: space)...].utf8)
            guard lengths.count >= 2, lengths.allSatisfy({ ($0 ?? -1) >= 0 }), lengths.reduce(0, { $0 + $1! }) == bytes.count else {
                return nil
            }
            var texts: [String] = []
            var start = 0
            for length in lengths {
                texts.append(String(decoding: bytes[start..<(start + length!)], as: UTF8.self))
                start += length!
            }
            body = .inline(texts)
        default:
            return nil
        }
    }
}

/// Builds the payloads of a batch of numbered messages: consecutive inline messages share a
/// payload while they fit under ``PostgresInstanceChannel/inlineLimit`` (with room for the
/// header), a stored message has one of its own.
///
/// ```swift
/// var packer = PayloadPacker(origin: "a1")
/// packer.add("hi", number: 7)
/// packer.add("bye", number: 8)
/// packer.finish()  // ["a1 7 m 2,3 hibye"]
/// ```
struct PayloadPacker {
    let origin: String
    /// The most bytes of messages, each counted with 8 for its length in the header, that one
    /// payload carries. The header's origin, number and kind take under 40 more: NOTIFY refuses
    /// 8,000 bytes.
    var limit = PostgresInstanceChannel.inlineLimit
    private var payloads: [String] = []
    private var pack: [String] = []
    private var packFirst = 0
    private var packBytes = 0

    init(origin: String) { self.origin = origin }

    /// Adds a message short enough to go inline. Numbers must grow by one; after a gap the
    /// message starts a payload of its own.
    mutating func add(_ message: String, number: Int) {
        let size = message.utf8.count + 8
        if !pack.isEmpty, packBytes + size > limit || number != packFirst + pack.count { flush() }
        if pack.isEmpty { packFirst = number }
        pack.append(message)
        packBytes += size
    }

    /// Adds a message stored under `id`.
    mutating func addStored(id: Int, number: Int) {
        flush()
        payloads.append("\(origin) \(number) r \(id)")
    }

    /// The payloads, in the messages' order.
    mutating func finish() -> [String] {
        flush()
        defer { payloads = [] }
        return payloads
    }

    private mutating func flush() {
        switch pack.count {
        case 0: return
        case 1: payloads.append("\(origin) \(packFirst) i " + pack[0])
        default:
            let lengths = pack.map { String($0.utf8.count) }.joined(separator: ",")
            payloads.append("\(origin) \(packFirst) m \(lengths) " + pack.joined())
        }
        pack = []
        packBytes = 0
    }
}
