import Foundation

/// The keys of JSON objects, as a file a person edits may repeat them: JSON
/// leaves an object with the same key twice undefined, and Foundation's
/// decoder keeps the last one silently (a hand-edited baseline with a key
/// twice once passed the gate on the value nobody saw).
public enum JSONKeys {
    /// The first key that an object of `data` holds twice (compared as
    /// decoded, so `"a"` and `"\u0061"` are the same key), with the path of
    /// the object (`entries[3].metrics`), or nil when there is none or the
    /// text is no JSON (the decoder then says why). One pass over the bytes
    /// with a stack of the open containers; nesting deeper than `depth` is
    /// left to the decoder too.
    public static func firstDuplicate(in data: Data, depth: Int = 512) -> (path: String, key: String)? {
        walk(data, depth: depth, stopAtDuplicate: true, value: nil)
    }

    /// The 1-based line on which each element of the array at `path`
    /// (`entries`, as ``firstDuplicate(in:depth:)`` spells paths) begins,
    /// in order: where a report can point a reader at one entry of a file.
    /// Nil when the text holds no array at `path`; of a text that is no
    /// JSON, what was read before it broke (the decoder says why).
    public static func elementLines(in data: Data, array path: String, depth: Int = 512) -> [Int]? {
        var lines: [Int] = []
        var found = false
        let prefix = path + "["
        _ = walk(data, depth: depth, stopAtDuplicate: false) { valuePath, line, isArray in
            if valuePath == path { found = isArray; return }
            // an element is `path[k]` itself, not a value inside one
            guard valuePath.hasPrefix(prefix), valuePath.dropFirst(prefix.count).allSatisfy({ $0 != "[" && $0 != "." }) else { return }
            lines.append(line)
        }
        return found ? lines : nil
    }

    /// One pass over the text: `value` (when given) is called at the start
    /// of every value with its path, its line and whether it is an array;
    /// returns the first duplicate key when `stopAtDuplicate`.
    private static func walk(_ data: Data, depth: Int, stopAtDuplicate: Bool,
                             value: ((String, Int, Bool) -> Void)?) -> (path: String, key: String)? {
        data.withUnsafeBytes { raw -> (String, String)? in
            let b = raw.bindMemory(to: UInt8.self)
            var i = 0
            var line = 1
            /// An open container: an object's keys so far and its path, or an array's next index.
            struct Open { var keys: Set<String>?; var path: String; var index: Int; var key: String? }
            var stack: [Open] = []

            func skipSpace() {
                while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 {
                    if b[i] == 0x0A { line += 1 }
                    i += 1
                }
            }

            /// A string at `i` (its opening quote), decoded; nil when malformed.
            func string() -> String? {
                guard i < b.count, b[i] == 0x22 else { return nil }
                i += 1
                var bytes: [UInt8] = []
                var scalars = String.UnicodeScalarView()
                func flush() {
                    if !bytes.isEmpty { scalars.append(contentsOf: String(decoding: bytes, as: UTF8.self).unicodeScalars); bytes.removeAll() }
                }
                func hex4() -> UInt32? {
                    guard i + 4 <= b.count else { return nil }
                    var v: UInt32 = 0
                    for k in 0..<4 {
                        let c = b[i + k]
                        let d: UInt32
                        switch c {
                        case 0x30...0x39: d = UInt32(c - 0x30)
                        case 0x41...0x46: d = UInt32(c - 0x41 + 10)
                        case 0x61...0x66: d = UInt32(c - 0x61 + 10)
                        default: return nil
                        }
                        v = v * 16 + d
                    }
                    i += 4
                    return v
                }
                while i < b.count {
                    let c = b[i]
                    i += 1
                    if c == 0x22 { flush(); return String(scalars) }
                    if c == 0x0A { line += 1 }
                    if c != 0x5C { bytes.append(c); continue }
                    guard i < b.count else { return nil }
                    let e = b[i]
                    i += 1
                    flush()
                    switch e {
                    case 0x22, 0x5C, 0x2F: scalars.append(Unicode.Scalar(e))
                    case 0x62: scalars.append("\u{08}")
                    case 0x66: scalars.append("\u{0C}")
                    case 0x6E: scalars.append("\n")
                    case 0x72: scalars.append("\r")
                    case 0x74: scalars.append("\t")
                    case 0x75:
                        guard var v = hex4() else { return nil }
                        if (0xD800...0xDBFF).contains(v), i + 1 < b.count, b[i] == 0x5C, b[i + 1] == 0x75 {
                            i += 2
                            guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                            v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)
                        }
                        scalars.append(Unicode.Scalar(v) ?? "\u{FFFD}")
                    default: return nil
                    }
                }
                return nil
            }

            /// Skips a number, `true`, `false` or `null`.
            func scalar() -> Bool {
                let start = i
                while i < b.count, !(b[i] == 0x2C || b[i] == 0x7D || b[i] == 0x5D || b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09) {
                    i += 1
                }
                return i > start
            }

            /// The path of a value about to be read in the innermost container.
            func childPath() -> String {
                guard let top = stack.last else { return "" }
                if top.keys != nil { return top.path.isEmpty ? (top.key ?? "") : top.path + "." + (top.key ?? "") }
                return top.path + "[\(top.index)]"
            }

            skipSpace()
            // values: each iteration reads one value (opening a container, or a scalar)
            while i < b.count {
                skipSpace()
                guard i < b.count else { return nil }
                let path = childPath()
                value?(path, line, b[i] == 0x5B)
                switch b[i] {
                case 0x7B: // {
                    i += 1
                    guard stack.count < depth else { return nil }
                    stack.append(Open(keys: [], path: path, index: 0, key: nil))
                    skipSpace()
                    if i < b.count, b[i] == 0x7D { i += 1; stack.removeLast(); break }
                    guard let key = string() else { return nil }
                    stack[stack.count - 1].keys!.insert(key)
                    stack[stack.count - 1].key = key
                    skipSpace()
                    guard i < b.count, b[i] == 0x3A else { return nil }
                    i += 1
                    continue
                case 0x5B: // [
                    i += 1
                    guard stack.count < depth else { return nil }
                    stack.append(Open(keys: nil, path: path, index: 0, key: nil))
                    skipSpace()
                    if i < b.count, b[i] == 0x5D { i += 1; stack.removeLast(); break }
                    continue
                case 0x22:
                    guard string() != nil else { return nil }
                default:
                    guard scalar() else { return nil }
                }
                // after a value: a comma (and the next key) or the container's end, maybe several ends
                while true {
                    skipSpace()
                    guard var top = stack.popLast() else {
                        return nil // the one top-level value is read
                    }
                    guard i < b.count else { return nil }
                    if b[i] == 0x2C {
                        i += 1
                        if top.keys != nil {
                            skipSpace()
                            guard let key = string() else { return nil }
                            if stopAtDuplicate, top.keys!.contains(key) { return (top.path, key) }
                            top.keys!.insert(key)
                            top.key = key
                            skipSpace()
                            guard i < b.count, b[i] == 0x3A else { return nil }
                            i += 1
                        } else {
                            top.index += 1
                        }
                        stack.append(top)
                        break
                    }
                    guard b[i] == (top.keys != nil ? 0x7D : 0x5D) else { return nil }
                    i += 1
                    // closed: the container is a value of its parent
                }
            }
            return nil
        }
    }
}
