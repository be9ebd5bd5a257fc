import Foundation

/// The look shared by every latsim chart: colours, fonts, grid and the
/// title block, so that charts placed side by side read as one set.
public enum ChartStyle {
    /// Series colours, in order: the Okabe-Ito colour-blind-safe palette
    /// (without its yellow, which is unreadable on white).
    public static let series: [UInt32] = [
        0x0072B2, // blue
        0xD55E00, // vermillion
        0x009E73, // bluish green
        0xE69F00, // orange
        0xCC79A7, // reddish purple
        0x56B4E9, // sky blue
        0x555555, // dark grey
    ]

    /// The colour of series `index` (the palette repeats).
    public static func color(_ index: Int) -> UInt32 {
        series[((index % series.count) + series.count) % series.count]
    }

    /// Display-buffer colours for pipeline diagrams, after the talk's
    /// slides: green, blue, then orange for the third buffer.
    public static let buffers: [UInt32] = [0x3FA34D, 0x3B78C2, 0xF08A24, 0x9A5BC6, 0x8D6E63]

    /// The ink of a label printed on a fill of `color`: white or near-black,
    /// whichever has the higher WCAG contrast ratio against it (white on
    /// yellow or orange reads at under 3:1; dark ink there at over 7:1).
    public static func labelInk(on color: UInt32) -> UInt32 {
        func linear(_ c: UInt32) -> Double {
            let v = Double(c & 0xFF) / 255
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        func luminance(_ c: UInt32) -> Double { 0.2126 * linear(c >> 16) + 0.7152 * linear(c >> 8) + 0.0722 * linear(c) }
        func contrast(_ a: UInt32, _ b: UInt32) -> Double {
            let (la, lb) = (luminance(a), luminance(b))
            return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
        }
        let dark: UInt32 = 0x1A1A1A
        return contrast(0xFFFFFF, color) >= contrast(dark, color) ? 0xFFFFFF : dark
    }

    /// The shading of an animation (low latency off) behind a timeline.
    public static let animation: UInt32 = 0xF6D3A3
    /// The shading of a gap with no new touch content.
    public static let gap: UInt32 = 0xE3E3E3
    /// The shading of the time with three display buffers.
    public static let triple: UInt32 = 0xC9E2F2

    /// Text and axis colour.
    public static let ink: UInt32 = 0x222222
    /// Grid and reference-line colour.
    public static let rule: UInt32 = 0xCCCCCC

    /// Which way the lines of ``periodLines(every:from:to:_:color:width:label:)`` run.
    enum LineDirection {
        /// Across the x axis (a time on the x axis).
        case vertical
        /// Across the y axis (a time on the y axis).
        case horizontal
    }

    /// A line at every whole multiple k >= 1 of `period` from `low` to
    /// `high`, each labelled `label(k)` at its far end (the top of a
    /// vertical line, the right of a horizontal one): the display periods
    /// behind a latency axis. Nothing without a period.
    static func periodLines(every period: Double?, from low: Double, to high: Double, _ direction: LineDirection,
                            color: UInt32, width: Double, label: (Int) -> String) -> String {
        guard let period, period > 0 else { return "" }
        var out = ""
        var k = Swift.max(1, (low / period).rounded(.up))
        while k * period <= high {
            let at = GnuplotText.number(k * period), text = label(Int(k))
            switch direction {
            case .vertical:
                out += "set arrow from first \(at), graph 0 to first \(at), graph 1 nohead back lc \(GnuplotText.rgb(color)) lw \(GnuplotText.number(width))\n"
                out += "set label \"\(text)\" at first \(at), graph 1 offset 0.4,-1 left tc \(GnuplotText.rgb(0x6B7B8C)) font \",10\"\n"
            case .horizontal:
                out += "set arrow from graph 0, first \(at) to graph 1, first \(at) nohead back lc \(GnuplotText.rgb(color)) lw \(GnuplotText.number(width))\n"
                out += "set label \"\(text)\" at graph 1, first \(at) offset 0.5,0 left tc \(GnuplotText.rgb(0x6B7B8C)) font \",10\"\n"
            }
            k += 1
        }
        return out
    }

    /// The title block as gnuplot's enhanced text: the title in bold, the
    /// subtitle smaller on a second line.
    static func heading(title: String, subtitle: String?) -> String {
        var heading = "{/:Bold*1.25 \(GnuplotText.escapeEnhanced(title))}"
        if let subtitle, !subtitle.isEmpty {
            heading += "\\n{/*0.95 \(GnuplotText.escapeEnhanced(subtitle))}"
        }
        return heading
    }

    /// The common `set` commands: title (bold, with an optional smaller
    /// subtitle line), grid, axis styling and key box.
    static func common(title: String, subtitle: String?) -> String {
        let heading = Self.heading(title: title, subtitle: subtitle)
        return """
        set encoding utf8
        set title "\(heading)" textcolor \(GnuplotText.rgb(ink)) offset 0,-0.3
        set border 3 lc \(GnuplotText.rgb(0x666666)) lw 1
        set tics nomirror out scale 0.6 textcolor \(GnuplotText.rgb(ink))
        set grid back lc \(GnuplotText.rgb(rule)) lw 1 dt 1
        set key opaque box lc \(GnuplotText.rgb(0xDDDDDD)) samplen 2.5 spacing 1.2 width 1
        set style fill solid 1.0 noborder

        """
    }
}
