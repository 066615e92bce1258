import DeltaSyncCore
import Foundation

/// A Java `DateTimeFormatter` pattern (`yyyy-MM-dd'T'HH:mm:ss.SSSXXX`), as `$util.time` takes
/// them: the letters `G y u M L d D E a h H k K m s S Z X x z O V`, `'quoted text'` (`''` for a
/// quote), `[optional sections]`, and other characters as themselves. English names.
struct VTLDateTimePattern {
    indirect enum Token {
        /// A pattern letter and how many times it is repeated (`yyyy` is `("y", 4)`).
        case field(Character, Int)
        case literal(String)
        case optional([Token])
    }

    /// A pattern or a text that does not fit, with the message for the template's error.
    struct Failure: Error {
        var message: String
    }

    let tokens: [Token]

    static let letters: Set<Character> = ["G", "y", "u", "M", "L", "d", "D", "E", "a", "h", "H", "k", "K", "m", "s", "S", "Z", "X", "x", "z", "O", "V"]
    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
    /// Monday first, as `java.time.DayOfWeek`.
    static let dayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    init(_ pattern: String) throws(Failure) {
        var characters = Array(pattern)[...]
        tokens = try Self.tokens(&characters, pattern: pattern, nested: false)
    }

    private static func tokens(_ characters: inout ArraySlice<Character>, pattern: String, nested: Bool) throws(Failure) -> [Token] {
        var tokens: [Token] = []
        while let character = characters.first {
            characters = characters.dropFirst()
            switch character {
            case "'":
                var text = ""
                while true {
                    guard let next = characters.first else { throw Failure(message: "the pattern '\(pattern)' has a quote without its closing quote") }
                    characters = characters.dropFirst()
                    if next == "'" {
                        if characters.first == "'" {
                            text.append("'")
                            characters = characters.dropFirst()
                            continue
                        }
                        break
                    }
                    text.append(next)
                }
                tokens.append(.literal(text.isEmpty ? "'" : text))
            case "[":
                tokens.append(.optional(try Self.tokens(&characters, pattern: pattern, nested: true)))
            case "]":
                guard nested else { throw Failure(message: "the pattern '\(pattern)' closes an optional section it never opened") }
                return tokens
            case let letter where letter.isASCII && letter.isLetter:
                guard letters.contains(letter) else { throw Failure(message: "the pattern letter '\(letter)' is not one DeltaSync formats (pattern '\(pattern)')") }
                var count = 1
                while characters.first == letter {
                    count += 1
                    characters = characters.dropFirst()
                }
                tokens.append(.field(letter, count))
            default:
                tokens.append(.literal(String(character)))
            }
        }
        return tokens
    }

    // MARK: - Formatting

    /// The instant `milliseconds` after the epoch, in `zone`.
    func format(milliseconds: Int, in zone: VTLTimeZone) -> String {
        let offset = zone.offset(atMilliseconds: milliseconds)
        let (days, millisecondOfDay) = CivilDate.floorDivide(milliseconds + offset * 1000, 86_400_000)
        let fields = Fields(days: days, millisecondOfDay: millisecondOfDay, offset: offset, zone: zone, instant: milliseconds)
        return Self.format(tokens, fields)
    }

    private struct Fields {
        var days: Int
        var millisecondOfDay: Int
        var offset: Int
        var zone: VTLTimeZone
        var instant: Int
    }

    private static func format(_ tokens: [Token], _ fields: Fields) -> String {
        var text = ""
        for token in tokens {
            switch token {
            case .literal(let literal): text += literal
            case .optional(let inner): text += format(inner, fields)
            case .field(let letter, let count): text += format(letter, count, fields)
            }
        }
        return text
    }

    private static func format(_ letter: Character, _ count: Int, _ fields: Fields) -> String {
        let (year, month, day) = CivilDate.date(fromDays: fields.days)
        let hour = fields.millisecondOfDay / 3_600_000
        let pad = VTLTimeZone.pad
        func name(_ full: String) -> String { count == 4 ? full : count == 5 ? String(full.prefix(1)) : String(full.prefix(3)) }
        switch letter {
        case "G": return count == 4 ? "Anno Domini" : count == 5 ? "A" : "AD"
        case "y", "u": return count == 2 ? pad(abs(year) % 100, 2) : pad(year, count)
        case "M", "L": return count >= 3 ? name(monthNames[month - 1]) : pad(month, count)
        case "d": return pad(day, count)
        case "D": return pad(fields.days - CivilDate.days(year: year, month: 1, day: 1) + 1, count)
        case "E": return name(dayNames[CivilDate.floorDivide(fields.days + 3, 7).1])
        case "a": return hour < 12 ? "AM" : "PM"
        case "H": return pad(hour, count)
        case "h": return pad(hour % 12 == 0 ? 12 : hour % 12, count)
        case "k": return pad(hour == 0 ? 24 : hour, count)
        case "K": return pad(hour % 12, count)
        case "m": return pad(fields.millisecondOfDay / 60_000 % 60, count)
        case "s": return pad(fields.millisecondOfDay / 1000 % 60, count)
        case "S":
            let nanoseconds = pad(fields.millisecondOfDay % 1000, 3) + "000000"
            return String(nanoseconds.prefix(count)) + String(repeating: "0", count: max(0, count - 9))
        case "Z":
            switch count {
            case 4: return fields.offset == 0 ? "GMT" : "GMT" + VTLTimeZone.offsetText(fields.offset, separator: ":", seconds: .whenNonZero)
            case 5: return fields.offset == 0 ? "Z" : VTLTimeZone.offsetText(fields.offset, separator: ":", seconds: .whenNonZero)
            default: return VTLTimeZone.offsetText(fields.offset, separator: "", seconds: .never)
            }
        case "X", "x":
            if letter == "X", fields.offset == 0 { return "Z" }
            return isoOffset(fields.offset, count)
        case "O":
            guard fields.offset != 0 else { return "GMT" }
            if count == 4 { return "GMT" + VTLTimeZone.offsetText(fields.offset, separator: ":", seconds: .whenNonZero) }
            let magnitude = abs(fields.offset)
            let minutes = magnitude / 60 % 60
            return "GMT" + (fields.offset < 0 ? "-" : "+") + String(magnitude / 3600) + (minutes == 0 ? "" : ":" + pad(minutes, 2))
        case "V": return fields.zone.id
        default: return zoneName(fields, full: count >= 4)
        }
    }

    /// `X`/`x`: `+08`, `+0830`; `+0800`; `+08:00`; `+0800`, `+080030`; `+08:00`, `+08:00:30`.
    private static func isoOffset(_ offset: Int, _ count: Int) -> String {
        switch count {
        case 1: return VTLTimeZone.offsetText(offset, separator: "", minutes: abs(offset) / 60 % 60 != 0, seconds: .never)
        case 2: return VTLTimeZone.offsetText(offset, separator: "", seconds: .never)
        case 3: return VTLTimeZone.offsetText(offset, separator: ":", seconds: .never)
        case 4: return VTLTimeZone.offsetText(offset, separator: "", seconds: .whenNonZero)
        default: return VTLTimeZone.offsetText(offset, separator: ":", seconds: .whenNonZero)
        }
    }

    /// `z`: the zone's short English name from the system's database (`EST`, `EDT`; `GMT+8`
    /// where it has none, where Java has `CST`), or its full name for `zzzz`; an offset zone
    /// prints its id, as Java does.
    private static func zoneName(_ fields: Fields, full: Bool) -> String {
        if fields.zone.fixedOffset != nil {
            if fields.zone.id == "UTC" || fields.zone.id == "GMT" || fields.zone.id == "UT" {
                return full ? "Coordinated Universal Time" : fields.zone.id
            }
            return fields.zone.id
        }
        let date = Date(timeIntervalSince1970: Double(fields.instant) / 1000)
        let timeZone = fields.zone.timeZone
        if full {
            let style: NSTimeZone.NameStyle = timeZone.isDaylightSavingTime(for: date) ? .daylightSaving : .standard
            return timeZone.localizedName(for: style, locale: Locale(identifier: "en_US")) ?? fields.zone.id
        }
        let style: NSTimeZone.NameStyle = timeZone.isDaylightSavingTime(for: date) ? .shortDaylightSaving : .shortStandard
        return timeZone.localizedName(for: style, locale: Locale(identifier: "en_US")) ?? fields.zone.id
    }
}
