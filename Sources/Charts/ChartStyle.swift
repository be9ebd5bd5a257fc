import Foundation
import FramePipeline

/// The look shared by every latsim chart: colours, fonts, grid and the
/// title block, so that charts placed side by side read as one set.
public enum ChartStyle {
    // MARK: the palette

    /// The categorical palette: every colour a chart gives a category (a
    /// series, a pipeline stage, a display buffer, a mark) is one of these.
    /// They come from colour schemes made to stay apart for readers with
    /// any common colour-vision deficiency: Okabe and Ito's (2008), first,
    /// then Paul Tol's bright, vibrant, muted, light and high-contrast
    /// schemes (SRON/EPS/TN/09-002), and greys. Series take them in order,
    /// the first five of five hues (the orange and the sky blue, which
    /// read as the vermillion's and the blue's, come sixth and seventh);
    /// the stage budget gives each of its 27 stages its
    /// own (``stage(_:)``); `ChartPaletteTests` checks, by simulating
    /// protanopia, deuteranopia and tritanopia, that the stages of one
    /// platform stay apart.
    public static let palette: [UInt32] = [
        // Okabe-Ito, without its yellow (unreadable on white): the series
        0x0072B2, // blue
        0xD55E00, // vermillion
        0x009E73, // bluish green
        0xCC79A7, // reddish purple
        0x555555, // dark grey
        0xE69F00, // orange (sixth: with the vermillion it reads as one hue)
        0x56B4E9, // sky blue (last: with the blue it reads as one hue)
        // Paul Tol's schemes, and greys
        0x4477AA, // blue (bright)
        0x004488, // dark blue (high contrast)
        0x332288, // indigo (muted)
        0x99DDFF, // light cyan (light)
        0xAAAAAA, // silver
        0xDDAA33, // yellow (high contrast)
        0xEE8866, // light orange (light)
        0xEEDD88, // light yellow (light)
        0x44BB99, // mint (light)
        0x228833, // green (bright)
        0x999933, // olive (muted)
        0xBBCC33, // pear (light)
        0xCC6677, // rose (muted)
        0xCC3311, // red (vibrant)
        0xAA3377, // purple (bright)
        0xDDDDDD, // pale grey
        0x222222, // near black
        // the stages of an ink app (Tol's medium-contrast, dark, pale and vibrant schemes)
        0x994455, // dark red (medium contrast)
        0x225555, // dark cyan (dark)
        0xCCDDAA, // pale green (pale)
        0x663333, // dark red (dark)
        0x009988, // teal (vibrant)
        0xFFCCCC, // pale red (pale)
        // a display that changes its rate (Tol's discrete rainbow, its fourth)
        0xCAACCB, // pale mauve
    ]

    /// The colour of series `index` (the palette repeats).
    public static func color(_ index: Int) -> UInt32 {
        palette[((index % palette.count) + palette.count) % palette.count]
    }

    /// Each stage's colour (Docs/Budget.md), one per stage of both
    /// platforms: the input in blues (its dispatch in silver), the app in
    /// yellows and oranges, the compositor in greens, the GPU in reds, the
    /// display in purples and greys (the latch wait pale). Stages of one bar
    /// that follow each other differ in lightness as well as hue. The six
    /// stages of an ink app (Docs/Ink.md: the mid-frame read, and a
    /// front-buffered draw's input wait, render wait, front render, compose
    /// wait and scan race) are the only colours far enough from the twenty
    /// others that Tol's schemes offer; they were chosen by trying every
    /// assignment against ``ChartPaletteTests``' floors. The rate switch
    /// wait of a display that changes its rate is a pale mauve, among the
    /// display's purples: of Tol's colours left, the one farthest from the
    /// others that keeps every floor.
    public static func stage(_ stage: BudgetStage) -> UInt32 {
        switch stage {
        case .resampling: return 0x332288
        case .scan: return 0x4477AA
        case .digitizer: return 0x99DDFF
        case .dispatch: return 0xAAAAAA
        case .deliveryWait: return 0x004488
        case .batchWait: return 0x56B4E9
        case .handler: return 0xDDAA33
        case .uiThread: return 0xEE8866
        case .syncWait: return 0xEEDD88
        case .renderServerWait: return 0x44BB99
        case .dequeueWait: return 0x228833
        case .prepare: return 0x999933
        case .renderThread: return 0xBBCC33
        case .gpuWait: return 0xCC6677
        case .gpu: return 0xCC3311
        case .latchWait: return 0xDDDDDD
        case .presentWait: return 0x555555
        case .rateSwitchWait: return 0xCAACCB
        case .idleWake: return 0xAA3377
        case .scanOut: return 0xCC79A7
        case .panel: return 0x222222
        case .midFrameRead: return 0x994455
        case .inputWait: return 0x225555
        case .renderWait: return 0xCCDDAA
        case .frontRender: return 0x663333
        case .composeWait: return 0x009988
        case .scanRace: return 0xFFCCCC
        }
    }

    /// Display-buffer colours for pipeline diagrams, after the talk's
    /// slides: green, blue, then orange for the third buffer.
    public static let buffers: [UInt32] = [0x228833, 0x4477AA, 0xE69F00, 0xAA3377, 0x44BB99, 0xCC6677]
    /// A diagram's touch handling (iOS) or touch and UI work (Android).
    public static let touchWork: UInt32 = 0x999933
    /// A diagram's waits (Android's sync, dequeue and idle wake).
    public static let waiting: UInt32 = 0xAAAAAA
    /// A diagram's vsync-app and vsync-sf ticks.
    public static let vsyncApp: UInt32 = 0x009E73, vsyncSf: UInt32 = 0xD55E00
    /// A diagram's event marks, in order.
    public static let marks: [UInt32] = [0xCC3311, 0x332288, 0x222222, 0x999933]
    /// The marks of a press: the crossing, the decision, the haptic tap, the photon.
    public static let pressMarks: [UInt32] = [0x222222, 0xD55E00, 0x009E73, 0x0072B2]
    /// A hitch and a dropped frame on a timeline.
    public static let hitch: UInt32 = 0xCC3311, drop: UInt32 = 0x555555
    /// A front buffer's wet ink (a diagram's wet draws), and the pen's row
    /// they are drawn at.
    public static let wetInk: UInt32 = 0x009E73
    /// A wet draw the scan-out passed while the GPU drew it (torn).
    public static let tornInk: UInt32 = 0xCC3311
    /// The scan line: the row the display is scanning out.
    public static let scanLine: UInt32 = 0x332288
    /// The talk's own figure beside a simulated one.
    public static let talk: UInt32 = 0xAAAAAA

    // MARK: shades (drawn pale, behind the data)

    /// The shading of an animation (low latency off) behind a timeline.
    public static let animation: UInt32 = 0xEEDD88
    /// The shading of a gap with no new touch content.
    public static let gap: UInt32 = 0xDDDDDD
    /// The shading of the time with three display buffers.
    public static let triple: UInt32 = 0x99DDFF
    /// The band a validated figure must fall in.
    public static let passBand: UInt32 = 0xDCEFE3
    /// The band behind a diagram's followed frames.
    public static let followedBand: UInt32 = 0xF4F5F7

    /// The sequential palette of heat maps (viridis: dark to bright,
    /// perceptually even, readable in grey and by colour-blind readers).
    public static let sequential = ["#440154", "#3B528B", "#21918C", "#5EC962", "#FDE725"]

    // MARK: neutrals

    /// Text and axis colour; the darkest marks.
    public static let ink: UInt32 = 0x222222
    /// Annotations and their labels.
    public static let annotation: UInt32 = 0x333333
    /// Reference lines drawn over data (zero, a marked value).
    public static let reference: UInt32 = 0x444444
    /// Axis borders.
    public static let border: UInt32 = 0x666666
    /// Quiet labels (the periods, the percentiles, the thresholds).
    public static let quiet: UInt32 = 0x6B7B8C
    /// Dashed guides behind data (the median, the vsyncs).
    public static let guide: UInt32 = 0x8A8F98
    /// The display-period lines.
    public static let period: UInt32 = 0xB9C4D0
    /// A true quantity drawn faint behind what was measured (the finger's
    /// path, the true force, a release level).
    public static let truth: UInt32 = 0xC8C8C8
    /// Grid lines.
    public static let rule: UInt32 = 0xCCCCCC
    /// The legend's box.
    public static let keyBox: UInt32 = 0xDDDDDD
    /// White.
    public static let white: UInt32 = 0xFFFFFF
    /// Fully transparent (gnuplot's `#AARRGGBB`): a grid kept only to put
    /// tics in front of filled cells.
    public static let invisible = "#00FFFFFF"

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
        return contrast(white, color) >= contrast(ink, color) ? white : ink
    }

    /// Which way the lines of ``periodLines(every:from:to:_:width:label:)`` run.
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
                            width: Double, label: (Int) -> String) -> String {
        guard let period, period > 0 else { return "" }
        var out = ""
        var k = Swift.max(1, (low / period).rounded(.up))
        while k * period <= high {
            let at = GnuplotText.number(k * period), text = label(Int(k))
            switch direction {
            case .vertical:
                out += "set arrow from first \(at), graph 0 to first \(at), graph 1 nohead back lc \(GnuplotText.rgb(Self.period)) lw \(GnuplotText.number(width))\n"
                out += "set label \"\(text)\" at first \(at), graph 1 offset 0.4,-1 left tc \(GnuplotText.rgb(quiet)) font \",10\"\n"
            case .horizontal:
                out += "set arrow from graph 0, first \(at) to graph 1, first \(at) nohead back lc \(GnuplotText.rgb(Self.period)) lw \(GnuplotText.number(width))\n"
                out += "set label \"\(text)\" at graph 1, first \(at) offset 0.5,0 left tc \(GnuplotText.rgb(quiet)) font \",10\"\n"
            }
            k += 1
        }
        return out
    }

    /// The title block as gnuplot's enhanced text: the title in bold, the
    /// subtitle smaller on the lines below (a newline in it starts another).
    static func heading(title: String, subtitle: String?) -> String {
        var heading = "{/:Bold*1.25 \(GnuplotText.escapeEnhanced(title))}"
        if let subtitle, !subtitle.isEmpty {
            for line in subtitle.split(separator: "\n") {
                heading += "\\n{/*0.95 \(GnuplotText.escapeEnhanced(String(line)))}"
            }
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
        set border 3 lc \(GnuplotText.rgb(border)) lw 1
        set tics nomirror out scale 0.6 textcolor \(GnuplotText.rgb(ink))
        set grid back lc \(GnuplotText.rgb(rule)) lw 1 dt 1
        set key opaque box lc \(GnuplotText.rgb(keyBox)) samplen 2.5 spacing 1.2 width 1
        set style fill solid 1.0 noborder

        """
    }
}
