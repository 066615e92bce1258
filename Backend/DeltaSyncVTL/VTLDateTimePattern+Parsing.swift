import DeltaSyncCore
import Foundation

/// Reading a text with a pattern, for `$util.time.parseFormattedToEpochMilliSeconds`.
extension VTLDateTimePattern {
    /// What a text gave, field by field.
    private struct Parsed {
        var year: Int?
        var month: Int?
        var day: Int?
        var hour: Int?
        var hourOfHalfDay: Int?
        var pm: Bool?
        var minute = 0
        var second = 0
        var millisecond = 0
        var offset: Int?
        var zone: VTLTimeZone?
    }

    /// Milliseconds since the epoch of `text`, read with the pattern. The text's own offset or
    /// zone wins over `zone`; without either the text cannot be placed and fails, as Java's
    /// `ZonedDateTime.parse` does. Missing time fields are midnight.
    func parse(_ text: String, zone: VTLTimeZone?) throws(Failure) -> Int {
        var input = Array(text)[...]
        var parsed = Parsed()
        let failure = Failure(message: "'\(text)' does not fit the pattern")
        guard Self.read(tokens, &input, &parsed), input.isEmpty else { throw failure }
        guard let year = parsed.year, let month = parsed.month, let day = parsed.day else {
            throw Failure(message: "'\(text)': the pattern needs a year, a month and a day")
        }
        var hour = parsed.hour ?? 0
        if parsed.hour == nil, let half = parsed.hourOfHalfDay { hour = half % 12 + (parsed.pm == true ? 12 : 0) }
        guard (1...12).contains(month), (1...CivilDate.daysInMonth(year: year, month: month)).contains(day),
              (0...23).contains(hour), (0...59).contains(parsed.minute), (0...59).contains(parsed.second)
        else { throw Failure(message: "'\(text)' is not a date and time that exists") }
        let local = CivilDate.days(year: year, month: month, day: day) * 86_400 + hour * 3600 + parsed.minute * 60 + parsed.second
        let seconds: Int
        if let offset = parsed.offset {
            seconds = local - offset
        } else if let placed = parsed.zone ?? zone {
            seconds = placed.utcSeconds(fromLocal: local)
        } else {
            throw Failure(message: "'\(text)' has no zone: give the pattern an offset (Z, XXX) or pass a zone as the third argument")
        }
        return seconds * 1000 + parsed.millisecond
    }

    private static func read(_ tokens: [Token], _ input: inout ArraySlice<Character>, _ parsed: inout Parsed) -> Bool {
        for (position, token) in tokens.enumerated() {
            switch token {
            case .literal(let literal):
                guard input.starts(with: literal) else { return false }
                input = input.dropFirst(literal.count)
            case .optional(let inner):
                let (savedInput, savedParsed) = (input, parsed)
                if !read(inner, &input, &parsed) { (input, parsed) = (savedInput, savedParsed) }
            case .field(let letter, let count):
                let adjacent: Bool
                if position + 1 < tokens.count, case .field(let next, _) = tokens[position + 1], "yuMdDHhkKmsS".contains(next) {
                    adjacent = true
                } else {
                    adjacent = false
                }
                guard read(letter, count, adjacent: adjacent, &input, &parsed) else { return false }
            }
        }
        return true
    }

    private static func read(_ letter: Character, _ count: Int, adjacent: Bool, _ input: inout ArraySlice<Character>, _ parsed: inout Parsed) -> Bool {
        func number(_ widths: ClosedRange<Int>) -> Int? {
            let digits = input.prefix(widths.upperBound).prefix { $0.isASCII && $0.isNumber }
            guard digits.count >= widths.lowerBound else { return nil }
            input = input.dropFirst(digits.count)
            return Int(String(digits))
        }
        /// One or two digits for a single letter, exactly `count` otherwise.
        func field(_ most: Int = 2) -> Int? { count == 1 ? number(1...(adjacent ? 1 : most)) : number(count...count) }
        func name(_ names: [String]) -> Int? {
            for (offset, full) in names.enumerated() {
                for candidate in [full, String(full.prefix(3))] where input.starts(with: candidate) {
                    input = input.dropFirst(candidate.count)
                    return offset
                }
            }
            return nil
        }
        switch letter {
        case "G":
            return ["Anno Domini", "AD", "A"].contains { era in
                guard input.starts(with: era) else { return false }
                input = input.dropFirst(era.count)
                return true
            }
        case "y", "u":
            if count == 2 {
                parsed.year = number(2...2).map { 2000 + $0 }
            } else {
                parsed.year = adjacent ? number(max(count, 4)...max(count, 4)) : number(count...10)
            }
            return parsed.year != nil
        case "M", "L":
            parsed.month = count >= 3 ? name(monthNames).map { $0 + 1 } : field()
            return parsed.month != nil
        case "d": parsed.day = field(); return parsed.day != nil
        case "D":
            return field(3) != nil
        case "E": return name(dayNames) != nil
        case "a":
            for (marker, pm) in [("AM", false), ("PM", true), ("am", false), ("pm", true)] where input.starts(with: marker) {
                input = input.dropFirst(2)
                parsed.pm = pm
                return true
            }
            return false
        case "H", "k":
            parsed.hour = field().map { letter == "k" && $0 == 24 ? 0 : $0 }
            return parsed.hour != nil
        case "h", "K": parsed.hourOfHalfDay = field(); return parsed.hourOfHalfDay != nil
        case "m": guard let value = field() else { return false }; parsed.minute = value; return true
        case "s": guard let value = field() else { return false }; parsed.second = value; return true
        case "S":
            // A fraction: its digits as written, so "050" is 50 ms.
            let digits = input.prefix(count).prefix { $0.isASCII && $0.isNumber }
            guard digits.count == count else { return false }
            input = input.dropFirst(count)
            parsed.millisecond = Int(String((String(digits) + "000").prefix(3))) ?? 0
            return true
        case "Z", "X", "x", "O":
            guard let offset = offset(&input, letter: letter) else { return false }
            parsed.offset = offset
            return true
        default:
            // `z`, `V`: a zone id, an offset, or an abbreviation the system knows.
            let id = input.prefix { $0.isLetter || $0.isNumber || "/_+-:".contains($0) }
            input = input.dropFirst(id.count)
            if let zone = VTLTimeZone.named(String(id)) {
                parsed.zone = zone
                return true
            }
            guard let zone = Foundation.TimeZone(abbreviation: String(id)) else { return false }
            parsed.zone = VTLTimeZone(id: String(id), fixedOffset: nil, timeZone: zone)
            return true
        }
    }

    /// `Z` (for `X`), `GMT`, or `[GMT]±hh[[:]mm[[:]ss]]`: seconds east of UTC.
    private static func offset(_ input: inout ArraySlice<Character>, letter: Character) -> Int? {
        if letter != "x", input.first == "Z" {
            input = input.dropFirst()
            return 0
        }
        var cursor = input
        if cursor.starts(with: "GMT") || cursor.starts(with: "UTC") {
            cursor = cursor.dropFirst(3)
            guard let sign = cursor.first, sign == "+" || sign == "-" else {
                input = cursor
                return 0
            }
        }
        guard let sign = cursor.first, sign == "+" || sign == "-" else { return nil }
        cursor = cursor.dropFirst()
        var parts: [Int] = []
        while parts.count < 3 {
            var next = cursor
            if !parts.isEmpty, next.first == ":" { next = next.dropFirst() }
            let digits = next.prefix(2).prefix { $0.isASCII && $0.isNumber }
            guard digits.count == 2 || (parts.isEmpty && digits.count == 1), let value = Int(String(digits)) else { break }
            parts.append(value)
            cursor = next.dropFirst(digits.count)
        }
        guard let hours = parts.first, hours <= 18 else { return nil }
        input = cursor
        let total = hours * 3600 + (parts.count > 1 ? parts[1] * 60 : 0) + (parts.count > 2 ? parts[2] : 0)
        return sign == "-" ? -total : total
    }
}
