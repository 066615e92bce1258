/// Formats instants as AppSync's `AWSDateTime` with milliseconds in UTC
/// (`2024-05-01T08:00:00.000Z`), the form `$util.time.nowISO8601()` produces.
///
/// Pure arithmetic: Foundation's ISO 8601 formatter costs more to create than a whole
/// mutation takes, and every write stamps `createdAt`/`updatedAt`.
///
/// ```swift
/// AWSDateTimeFormat.string(fromMilliseconds: 0)  // "1970-01-01T00:00:00.000Z"
/// ```
public enum AWSDateTimeFormat {
    public static func string(fromMilliseconds milliseconds: Int) -> String {
        let (days, msOfDay) = CivilDate.floorDivide(milliseconds, 86_400_000)
        let (year, month, day) = CivilDate.date(fromDays: days)
        let hours = msOfDay / 3_600_000
        let minutes = msOfDay / 60_000 % 60
        let seconds = msOfDay / 1000 % 60
        let millis = msOfDay % 1000
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hours, 2)):\(pad(minutes, 2)):\(pad(seconds, 2)).\(pad(millis, 3))Z"
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
