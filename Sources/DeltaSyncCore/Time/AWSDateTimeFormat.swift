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
        let (days, msOfDay) = floorDivide(milliseconds, 86_400_000)
        let (year, month, day) = civilDate(fromDays: days)
        let hours = msOfDay / 3_600_000
        let minutes = msOfDay / 60_000 % 60
        let seconds = msOfDay / 1000 % 60
        let millis = msOfDay % 1000
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hours, 2)):\(pad(minutes, 2)):\(pad(seconds, 2)).\(pad(millis, 3))Z"
    }

    private static func floorDivide(_ a: Int, _ b: Int) -> (Int, Int) {
        let q = a >= 0 ? a / b : (a - b + 1) / b
        return (q, a - q * b)
    }

    /// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func civilDate(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
