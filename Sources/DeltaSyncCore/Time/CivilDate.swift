/// Proleptic Gregorian dates from and to days since 1970-01-01 (Howard Hinnant's algorithms):
/// what `AWSDateTimeFormat` and the template engine's `$util.time` compute dates with.
///
/// ```swift
/// CivilDate.date(fromDays: 0)                     // (1970, 1, 1)
/// CivilDate.days(year: 2024, month: 5, day: 1)    // 19844
/// ```
package enum CivilDate {
    package static func date(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
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

    package static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    package static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// `a` divided by `b` rounded down, and the remainder (never negative).
    package static func floorDivide(_ a: Int, _ b: Int) -> (Int, Int) {
        let q = a >= 0 ? a / b : (a - b + 1) / b
        return (q, a - q * b)
    }
}
