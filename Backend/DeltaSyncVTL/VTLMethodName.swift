/// A method name as a template writes it (`$list.add(...)`), with the method it names
/// resolved when the template is parsed, so a call switches on ``known`` rather than comparing
/// strings. ``known`` is `nil` for a name no value has: calling it fails with ``text``.
struct VTLMethodName {
    let text: String
    let known: VTLMethod?

    init(_ text: String) {
        self.text = text
        known = VTLMethod(rawValue: text)
    }
}

/// The Java methods ``VTLMethods`` has on some value (`String`, `List`, `Map`, numbers, and
/// `$foreach`'s getters).
enum VTLMethod: String {
    case add
    case addAll
    case contains
    case containsKey
    case containsValue
    case count
    case doubleValue
    case endsWith
    case entrySet
    case equals
    case first
    case get
    case hasNext
    case index
    case indexOf
    case intValue
    case isEmpty
    case keySet
    case last
    case length
    case longValue
    case matches
    case put
    case putAll
    case remove
    case replace
    case replaceAll
    case set
    case size
    case split
    case startsWith
    case substring
    case toLowerCase
    case toString
    case toUpperCase
    case trim
    case values
}
