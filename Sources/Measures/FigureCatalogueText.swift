import LatsimOutput
import SimKernel

/// The figure catalogue (``Figure``) as text: the table `latsim figures`
/// prints and Docs/Figures.md, which a test keeps equal to ``markdown()``.
public enum FigureCatalogueText {
    static func row(_ f: Figure) -> [String] {
        let d = f.declaration
        return [f.rawValue, d.column, d.unit.rawValue, d.better.rawValue, d.platform.phrase,
                d.channel.phrase, String(d.places), d.aggregation.phrase, d.inFrames ? "yes" : ""]
    }

    static let header = ["name", "column", "unit", "better", "platform", "produced by", "places", "over a sweep point's seeds", "in frames"]

    /// The catalogue as a text table.
    public static func table() -> TextTable {
        TextTable(header: header, rows: Figure.allCases.map(row), rightAligned: [6])
    }

    /// `latsim figures --json`: `{"figures": [...]}`, one object per figure
    /// with every field of its declaration.
    public static func json() -> JSONValue {
        .object([("figures", .array(Figure.allCases.map { f in
            let d = f.declaration
            return .object([
                ("name", .string(f.rawValue)), ("column", .string(d.column)),
                ("unit", .string(d.unit.rawValue)), ("better", .string(d.better.rawValue)),
                ("platform", .string(d.platform.rawValue)), ("channel", .string(d.channel.rawValue)),
                ("places", .int(d.places)), ("aggregation", .string(d.aggregation.rawValue)), ("inFrames", .bool(d.inFrames)),
            ])
        }))])
    }

    /// Docs/Figures.md.
    public static func markdown() -> String {
        """
        # Figures

        Every figure a run produces, declared once in `Sources/Measures/FigureCatalogue.swift`
        (`FigureCatalogue`): this page is that declaration printed (`latsim figures --markdown`;
        a test fails when the two differ). `latsim run`, `run --seeds`, `compare`,
        `sweep` (table, CSV and JSON), the summary JSON's `figures` and the report's
        scenario tables take their rows from it, in this order: a figure a run
        produces appears in every one of them, and a figure it does not produce is
        left out (or shown as `-` beside runs that do).

        - **name**: the figure's one name, wherever a file or a flag holds it:
          `compare --fail-if-worse NAME`, a gate's `metrics:`, `headline:`, the
          JSON's `figures` (summary, `seeds`, `compare`), the sweep's CSV
          columns and JSON keys, Bencher's measures. A name says what is
          measured and which statistic, never the unit (the **unit** column
          does, and the long sweep CSV's `unit`). Names renamed in 0.11.0 are
          still read: \(FigureCatalogue.formerNames.sorted { $0.key < $1.key }.map { "`\($0.key)` (now `\($0.value)`)" }.joined(separator: ", ")).
        - **column**: the label a text table prints over it, short enough
          for a terminal; never read back.
        - **better**: `lower`, `higher`, `towardZero` (a signed error) or `none` (a
          count that describes the run); `compare` says `better` or `worse` by it.
        - **produced by**: the runs that have the figure: every run, a drawing
          finger (any `input.trajectory` but `taps`), a tapping finger, taps whose
          lifts the app draws, a scrolling app (`app.scrolls`) with a moving
          finger, an ink app (`app.ink`) and a front-buffered one, a finger that
          comes and goes or a display that changes its rate (the first touch
          after idle), a display that changes its rate (`display.minHz`), an app
          that uses force or predicts, Android's BufferQueue and FrameTimeline
          (Android 12 and later: an older release has no FrameTimeline).
        - **over a sweep point's seeds**: a latency statistic is taken of the
          seeds' frames pooled (their histograms merged); a per-run value is the
          mean of the seeds' values. `run --seeds` and `compare` give every figure
          as the mean of the seeds' values with its 95% interval.
        - **in frames**: `compare` also gives the difference in display frames
          when both sides run their displays at one rate. Across two rates a
          frame is a different length on each side: no difference in time is
          said in frames, and a figure whose unit is display frames (`frames
          p50`, `effective frames p50`: each side's count of its own frames)
          is marked `not comparable`, with no difference, interval or gate
          (`--fail-if-worse` on it is bad input). It is not converted to
          time, since the same latency in time is a figure of its own
          (`t2p p50 ms` beside `frames p50`), compared as any other: a
          120 Hz device once read "t2p p50 17 ms better" and "frames p50 2
          worse" in one table. Counts per run (presented, repeated, dropped)
          are counts of each side's refreshes; `fps` and `hitch ms/s` are
          the display's figures that hold across rates.

        Repeated frames, hitches and fps are defined in Model.md, "Repeated frames
        and hitches"; the FrameTimeline classes in Android.md, "Measurements"; the
        force figures in Force.md, "What is measured"; the prediction figures in
        Prediction.md (points; `PredictionMetric`); the scroll figures (time to
        first scroll movement, scroll-to-photon, the content's trail) in Model.md,
        "Scrolling"; the ink figures (pen-to-ink, the ink's error, torn frames,
        the dry commit) in Ink.md, "What is measured"; the display's rate and
        its switches in Model.md, "Display rate".

        ## First touch after idle

        A touch is a **first touch after idle** when no frame showed new
        content in the `measure.quietGap` (100 ms) before it: a tap's contact,
        or a drawn sample's instant (the first frame of a stroke after a lift);
        every other touch is **steady**. `firstTouchP50` and `firstTouchP99`
        are the latency of the first touches, `steadyTouchP50` and
        `steadyTouchP99` of the steady ones, each the run's own latency of a
        touch: tap-to-photon for a tapping finger, touch-to-photon for a
        drawing one. They are produced by runs whose finger comes and goes
        (taps, drags, strokes with lift-offs) and by every run with a finger on
        a display that changes its rate. The quiet gap is a convention of the
        measurement, not of any device: a device whose idle timer is shorter
        (the Pixel 4's 80 ms) can leave its steady touches at the idle rate
        too, which the steady figure then shows. `ui-taps` taps in bursts
        (four taps 100 ms apart, every 3 s), so each burst has one first touch
        and three steady ones. What makes a first touch slower is named by the
        stage budget (Budget.md): `rate switch wait`, `idle wake`.

        A display that changes its rate also reports **rate switches** (those
        that took effect), the share of the run at its **peak rate** and its
        time-weighted **mean rate**, the power side of the trade-off; the JSON's
        `display.rate` holds the time at each rate.

        ## Headline

        Each scenario names the figure it exists for, shown first in every table:
        `headline:` in its YAML (walt-screen: `frameToPhotonP50`, ui-taps:
        `firstTouchP50`, the ink scenarios: `penToInkP50`), else its app
        model's: `tapToPhotonP50` for a tapping finger (agawi-glkit,
        agawi-glsurfaceview), `scrollStartP50` for a scrolling app (android-scroll,
        ios-scroll), `frameToPhotonP50` with no finger, `touchToPhotonP50`
        otherwise (pencil-drawing and the drawing
        scenarios).

        ## The catalogue

        \(table().markdown())

        """
    }
}
