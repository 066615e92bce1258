import Foundation

/// A zone as Java's `ZoneId.of` reads it for `$util.time`: an offset (`+08:00`, `-0730`, `+8`,
/// `-07:00:30`, `UTC+01:00`), `Z`/`UTC`/`GMT`, or a region (`America/New_York`) from the
/// system's time zone database.
struct VTLTimeZone {
    /// The id Java prints for `VV`: `+08:00` for an offset, the region's name otherwise.
    var id: String
    /// Seconds east of UTC, for an offset zone; `nil` for a region.
    var fixedOffset: Int?
    var timeZone: TimeZone

    static let utc = VTLTimeZone(id: "UTC", fixedOffset: 0, timeZone: TimeZone(secondsFromGMT: 0)!)

    /// The zone `text` names; `nil` when it names none.
    static func named(_ text: String) -> VTLTimeZone? {
        if ["Z", "UTC", "GMT", "UT"].contains(text) { return VTLTimeZone(id: text == "Z" ? "Z" : text, fixedOffset: 0, timeZone: TimeZone(secondsFromGMT: 0)!) }
        for prefix in ["UTC", "GMT", "UT"] where text.hasPrefix(prefix) {
            let rest = text.dropFirst(prefix.count)
            if let first = rest.first, first == "+" || first == "-", let zone = offset(String(rest)) {
                return VTLTimeZone(id: prefix + zone.id, fixedOffset: zone.fixedOffset, timeZone: zone.timeZone)
            }
        }
        if let first = text.first, first == "+" || first == "-" { return offset(text) }
        guard text.contains("/"), let zone = TimeZone(identifier: text) else { return nil }
        return VTLTimeZone(id: text, fixedOffset: nil, timeZone: zone)
    }

    /// `+h`, `+hh`, `+hh:mm`, `+hhmm`, `+hh:mm:ss`, `+hhmmss` (and `-`), at most 18 hours.
    private static func offset(_ text: String) -> VTLTimeZone? {
        let sign = text.hasPrefix("-") ? -1 : 1
        let body = text.dropFirst()
        let parts: [Substring]
        if body.contains(":") {
            parts = body.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 3, parts.allSatisfy({ $0.count == 2 }) else { return nil }
        } else {
            guard [1, 2, 4, 6].contains(body.count) else { return nil }
            parts = body.count == 1 ? [body] : stride(from: 0, to: body.count, by: 2).map {
                body.dropFirst($0).prefix(2)
            }
        }
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == parts.count, parts.allSatisfy({ $0.allSatisfy(\.isASCII) }) else { return nil }
        let hours = numbers[0], minutes = numbers.count > 1 ? numbers[1] : 0, seconds = numbers.count > 2 ? numbers[2] : 0
        guard hours <= 18, minutes < 60, seconds < 60 else { return nil }
        let total = sign * (hours * 3600 + minutes * 60 + seconds)
        guard abs(total) <= 18 * 3600, let zone = TimeZone(secondsFromGMT: total) else { return nil }
        return VTLTimeZone(id: total == 0 ? "Z" : offsetText(total, separator: ":", seconds: .whenNonZero), fixedOffset: total, timeZone: zone)
    }

    /// Seconds east of UTC at `milliseconds` after the epoch.
    func offset(atMilliseconds milliseconds: Int) -> Int {
        if let fixedOffset { return fixedOffset }
        return timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    /// The instant whose local time in this zone is `localSeconds` (seconds of a local epoch):
    /// the offset before the wall-clock time, checked once after.
    func utcSeconds(fromLocal localSeconds: Int) -> Int {
        if let fixedOffset { return localSeconds - fixedOffset }
        let guess = localSeconds - offset(atMilliseconds: localSeconds * 1000)
        return localSeconds - offset(atMilliseconds: guess * 1000)
    }

    enum SecondsStyle { case never, whenNonZero, always }

    /// `+08:00`, `+0800`, `-07:00:30`.
    static func offsetText(_ total: Int, separator: String, minutes: Bool = true, seconds: SecondsStyle) -> String {
        let magnitude = abs(total)
        var text = (total < 0 ? "-" : "+") + pad(magnitude / 3600, 2)
        if minutes { text += separator + pad(magnitude / 60 % 60, 2) }
        if seconds == .always || (seconds == .whenNonZero && magnitude % 60 != 0) { text += separator + pad(magnitude % 60, 2) }
        return text
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
