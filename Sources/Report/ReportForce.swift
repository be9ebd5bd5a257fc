import Charts
import Experiments
import Foundation
import FramePipeline
import Scenarios
import SimKernel
import TouchModel

extension ReportWriter {
    /// The "3D Touch" section: the latency of a press from the true force's
    /// threshold crossing to the decision, the haptic tap and the photons,
    /// with and without the animations that turn low latency off; the
    /// recogniser's intent time against the spikes it rejects; and how far a
    /// force-sensitive stroke trails the finger's force, with and without
    /// predicted force (Docs/Force.md).
    public func forceSection(_ page: Page) throws -> Page {
        var page = page
        progress("3D Touch")
        func f(_ x: Double?, _ places: Int = 1) -> String { x.map { formatDecimal($0, places: places) } ?? "-" }
        let animated = try run("ios9-peek-pop")
        let still = try run("ios9-peek-pop") {
            $0.force.peekAnimation = 0
            $0.force.popAnimation = 0
        }
        let c = animated.configuration.force
        page.add("## 3D Touch")
        page.add()
        page.add("A press of `ios9-peek-pop` (\"A Peek at 3D Touch\", WWDC 2016): a finger resting on a list cell presses to peek, holds, presses on to pop and lets go, every 2 s (`\(c.press)`), on the iOS 9 low-latency pipeline at 60 Hz. The app recognises each stage from the force of the touches it is delivered (thresholds \(f(c.peek, 2)) and \(f(c.pop, 2)), hysteresis \(f(c.hysteresis, 2)), intent \(DurationSyntax.format(c.intent))), the Taptic Engine taps \(DurationSyntax.format(c.hapticLatency)) after each decision, and the preview and the committed view each start a \(DurationSyntax.format(c.peekAnimation)) animation, during which Core Animation's low latency is off. Every latency is counted from the instant the finger's true force crossed the stage's threshold; the talk gives the behaviour and Docs/Force.md says where each number comes from (most are choices).")
        page.add()
        page.add("| animations | stage | recognised | decided (ms) | haptic tap felt (ms) | first frame seen (ms) | touch-to-photon while animating / otherwise (ms) |")
        page.add("|---|---|---:|---:|---:|---:|---:|")
        for (label, r) in [("\(DurationSyntax.format(c.peekAnimation))", animated), ("none (0 ms)", still)] {
            guard let x = r.measurements.force else { continue }
            let t2p = "\(f(x.touchToPhotonAnimatingMs.percentile(50))) / \(f(x.touchToPhotonOtherwiseMs.percentile(50)))"
            for (name, s) in [("peek", x.peek), ("pop", x.pop)] {
                page.add("| \(label) | \(name) | \(s.recognized) | \(f(s.crossingToRecognitionMs.percentile(50))) | \(f(s.crossingToHapticMs.percentile(50))) | \(f(s.crossingToPhotonMs.percentile(50))) | \(name == "peek" ? t2p : "") |")
            }
        }
        page.add()
        let pressRun = try run("ios9-peek-pop", keepLog: true, duration: 5 * Nanos.perSecond / 2)
        if let chart = ForceChartBuilder.chart(pressRun, scenario: "ios9-peek-pop") {
            page.chart(try render(chart, "force-press"), alt: "one press: true and delivered force, thresholds, recognition, haptic and photon marks")
        }
        if let x = animated.measurements.force, let y = still.measurements.force,
           let decided = x.peek.crossingToRecognitionMs.percentile(50), let seen = x.peek.crossingToPhotonMs.percentile(50),
           let seenStill = y.peek.crossingToPhotonMs.percentile(50), let tap = x.peek.crossingToHapticMs.percentile(50) {
            page.add("The recogniser decides \(f(decided)) ms after the crossing: the intent time (\(DurationSyntax.format(c.intent)) of touches armed above the threshold) plus the wait for the scan, its sample's window and the next frame start. The finger feels the tap at \(f(tap)) ms. The preview reaches the eye at \(f(seen)) ms: the handler, then a render that waits for the vsync because the preview's own animation has just turned low latency off, \(f(seen - seenStill)) ms more than the \(f(seenStill)) ms it takes without the animation. For as long as an animation runs every touch drawn is a frame later too (the last column). Kaaresoja, Brewster and Lantz recommend 30–85 ms for the visual feedback of a button press (Docs/Force.md): the peek's haptic tap is inside that window, its picture is not.")
            page.add()
        }
        page = try intentTable(page)
        return try drawingTable(page)
    }

    /// What the intent time buys (tap spikes rejected) and costs (the peek's latency).
    func intentTable(_ page: Page) throws -> Page {
        var page = page
        let spike = try PressProfile.parse("ramp(peak=4, rise=30ms, hold=0ms, fall=30ms, at=500ms, every=1s)", framePeriod: Rational(16_666_667))
        page.add("### The intent time: spikes rejected against latency")
        page.add()
        page.add("The same press with other intent times, and ten taps whose impact reaches a force of 4 for a few milliseconds (`\(spike)`).")
        page.add()
        page.add("| app.force.intent | peek decided (ms) | peek seen (ms) | pop seen (ms) | tap spikes that peeked (of 10) |")
        page.add("|---:|---:|---:|---:|---:|")
        for intent in [0, 20, 40, 60, 80] as [Int64] {
            let press = try run("ios9-peek-pop") { $0.force.intent = intent * Nanos.perMillisecond }
            let taps = try run("ios9-peek-pop") {
                $0.force.intent = intent * Nanos.perMillisecond
                $0.force.press = spike
            }
            guard let x = press.measurements.force, let y = taps.measurements.force else { continue }
            func f(_ v: Double?) -> String { v.map { formatDecimal($0, places: 1) } ?? "-" }
            page.add("| \(intent) ms | \(f(x.peek.crossingToRecognitionMs.percentile(50))) | \(f(x.peek.crossingToPhotonMs.percentile(50))) | \(f(x.pop.crossingToPhotonMs.percentile(50))) | \(y.peek.recognized) |")
        }
        page.add()
        page.add("At a 60 Hz scan a spike is seen by one sample, or none: any intent time longer than the scan period rejects it, and each scan period of intent adds about a frame to every peek and pop.")
        page.add()
        return page
    }

    /// How far the drawn force trails the finger's, with and without prediction.
    func drawingTable(_ page: Page) throws -> Page {
        var page = page
        page.add("### Force-sensitive strokes")
        page.add()
        let base = try run("ios9-force-drawing")
        let press = base.configuration.force.press
        page.add("`ios9-force-drawing`: strokes whose width follows the force of the touches the app draws (\(formatDecimal(base.configuration.force.widthPerForce, places: 2)) points of width per unit of force), while the press swells and fades (`\(press)`). The force a frame draws is compared with the finger's true force when that frame's photons leave the panel. latsim's predictors extrapolate force as they extrapolate position (Docs/Force.md); Chromium's and androidx's predict positions only.")
        page.add()
        page.add("| predictor | horizon | force error at photon p50 / p99 | width error p99 (points) | mean signed (+ behind) | predicted force error rms |")
        page.add("|---|---:|---:|---:|---:|---:|")
        let variants: [(String, String, (inout PipelineConfiguration) -> Void)] = [
            ("none", "-", { _ in }),
            ("linearFirst", "1 frame", { $0.predictor = PredictorSpec(.linearFirst) }),
            ("linearFirst", "2 frames", {
                $0.predictor = PredictorSpec(.linearFirst)
                $0.horizon = 2 * $0.frameInterval
            }),
            ("kalman", "2 frames", {
                $0.predictor = PredictorSpec(.kalman)
                $0.horizon = 2 * $0.frameInterval
            }),
        ]
        var medians: [Double?] = []
        for (name, horizon, change) in variants {
            let r = try run("ios9-force-drawing", change)
            guard let x = r.measurements.force else { medians.append(nil); continue }
            medians.append(x.forceErrorAtPhoton.percentile(50))
            func f(_ v: Double?) -> String { v.map { formatDecimal($0, places: 3) } ?? "-" }
            let width = x.forceErrorAtPhoton.percentile(99).map { $0 * x.widthPerForce }
            page.add("| \(name) | \(horizon) | \(f(x.forceErrorAtPhoton.percentile(50))) / \(f(x.forceErrorAtPhoton.percentile(99))) | \(f(width)) | \(f(x.meanSignedErrorAtPhoton)) | \(f(x.prediction?.score?.errorRms)) |")
        }
        page.add()
        var text = "Drawn from the delivered force, the width trails a changing press by the two frames from sample to photon: behind while it swells, ahead while it fades. Extrapolating the force over the same two frames draws it exact on the press's straight stretches and off only where it turns"
        if medians.count > 1, let none = medians[0], let one = medians[1], none > 0 {
            text += "; one frame ahead leaves \(formatDecimal(one / none * 100, places: 0))% of the median error (\(formatDecimal(one, places: 3)) of \(formatDecimal(none, places: 3)))"
        }
        page.add(text + ".")
        page.add()
        return page
    }
}
