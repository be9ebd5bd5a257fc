import SimKernel

/// Helpers that turn Swift values into gnuplot script text.
///
/// gnuplot's enhanced text mode gives `^ _ @ & ~ { }` and `\` special
/// meanings (superscript, subscript, ...). Names from users (scenario and
/// predictor names such as `ios9_120hz`) must reach the image as typed, so
/// every free text goes through ``enhanced(_:)``; the double-quoted string
/// syntax then needs `\` and `"` escaped once more (gnuplot's "quotes"
/// help).
public enum GnuplotText {
    /// `text` as a double-quoted gnuplot string whose characters all print
    /// literally in enhanced text mode.
    public static func enhanced(_ text: String) -> String {
        "\"" + escapeEnhanced(text) + "\""
    }

    /// The body of an enhanced-mode string (no surrounding quotes), for
    /// composing with markup such as `{/:Bold ...}`.
    public static func escapeEnhanced(_ text: String) -> String {
        var out = ""
        for ch in text {
            switch ch {
            case "^", "_", "@", "&", "~", "{", "}":
                out += "\\\\"
                out.append(ch)
            case "\\": out += "\\\\\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += " "
            default: out.append(ch)
            }
        }
        return out
    }

    /// `text` as a double-quoted gnuplot string for a non-enhanced context
    /// (file names, `noenhanced` labels).
    public static func plain(_ text: String) -> String {
        var out = "\""
        for ch in text {
            switch ch {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(ch)
            }
        }
        return out + "\""
    }

    /// `text` on one line, safe after a `#`.
    public static func comment(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// A number with a `.` decimal point, at most 6 places, no exponent.
    public static func number(_ x: Double) -> String {
        x.isFinite ? formatDecimal(x, places: 6) : "NaN"
    }

    /// A colour as gnuplot's `rgb "#rrggbb"` specifier.
    public static func rgb(_ color: UInt32) -> String {
        "rgb \"#\(hex(color))\""
    }

    /// Six lowercase hex digits.
    static func hex(_ color: UInt32) -> String {
        let digits = Array("0123456789abcdef")
        var s = ""
        for shift in stride(from: 20, through: 0, by: -4) {
            s.append(digits[Int((color >> UInt32(shift)) & 0xF)])
        }
        return s
    }
}
