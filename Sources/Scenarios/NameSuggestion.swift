/// "Did you mean" for a mistyped name among `names`: the names that start
/// with what was typed (`ios9` -> every `ios9-*`), else the nearest by
/// edit distance when it is close (at most 3 edits). Empty: nothing close.
func nameSuggestions(for typed: String, among names: [String], limit: Int = 6) -> [String] {
    let t = typed.lowercased()
    if !t.isEmpty {
        let prefixed = names.filter { $0.lowercased().hasPrefix(t) }
        if !prefixed.isEmpty { return Array(prefixed.prefix(limit)) + (prefixed.count > limit ? ["and \(prefixed.count - limit) more"] : []) }
    }
    guard let near = names.min(by: { editDistance($0.lowercased(), t) < editDistance($1.lowercased(), t) }),
          editDistance(near.lowercased(), t) <= 3 else { return [] }
    return [near]
}

/// `; did you mean 'a'?` or `; did you mean one of 'a', 'b'?` (empty when
/// nothing is close).
func didYouMean(_ typed: String, among names: [String]) -> String {
    let s = nameSuggestions(for: typed, among: names)
    guard let first = s.first else { return "" }
    if s.count == 1 { return "; did you mean '\(first)'?" }
    let quoted = s.map { $0.hasPrefix("and ") ? $0 : "'\($0)'" }
    return "; did you mean one of " + quoted.joined(separator: ", ") + "?"
}
