import DequeModule
import SimKernel
import TouchModel

/// The app's response to force on iOS (Docs/Force.md): the recogniser and
/// the haptic actuator at each delivery, the preview and commit animations
/// its commits start, and the measurement of every press against the
/// finger's true force. ``IOSPipeline`` holds one only when the app uses
/// force (`app.force.interaction`), so a run without force never reaches it.
///
/// A class: the pipeline holds one reference, so a run without force
/// carries a nil pointer rather than an optional of this whole state, whose
/// copies and checks would cost every event.
final class ForceResponse {
    let settings: ForceSettings
    let geometry: FrameGeometry
    let horizon: SimTime
    var recognizer: ForceRecognizer
    var haptics: HapticActuator
    /// The app's force predictor, when its position predictor extrapolates force.
    var predictor: ForcePredictor?
    /// The noise-free finger, for crossings and the force at photon time.
    var truth: TrajectoryCursor
    var figures: ForceMeasurements
    let log: ForceLog?

    /// What a handler run drew: the force, the interaction's stage and progress.
    struct Drawn {
        var run: Int64
        var force: Double
        var state: PreviewState
        var progress: Double
        /// The run's commit was made while a force animation ran.
        var animated = false
    }
    /// Handler runs not yet shown, oldest first (latches follow commit order).
    var drawn = Deque<Drawn>()

    /// A recognised stage waiting for the first frame that shows it.
    struct PendingPhoton {
        var stage: PreviewState
        var run: Int64
        var crossing: SimTime?
        var logIndex: Int
    }
    var pendingPhotons = Deque<PendingPhoton>()
    /// An animation the given handler run's first commit starts, and how long it runs.
    var pendingAnimation: (run: Int64, length: SimTime)?
    /// The end of the force animation running (or last run).
    private(set) var animatingUntil: SimTime = .min
    /// The touch time before which no crossing of the current peek is
    /// searched: the end of the last interaction.
    var interactionFloor: SimTime = 0
    /// The peek's crossing, from which a pop's is searched.
    var peekCrossing: SimTime = 0

    init(configuration c: borrowing PipelineConfiguration, trajectory: Trajectory, keepLog: Bool) {
        settings = c.force
        geometry = FrameGeometry(c)
        horizon = c.horizon
        recognizer = ForceRecognizer(c.force)
        haptics = HapticActuator(latency: c.force.hapticLatency)
        predictor = ForcePredictor(c.appPredictor)
        truth = TrajectoryCursor(trajectory)
        figures = ForceMeasurements(interaction: c.force.interaction, widthPerForce: c.force.widthPerForce)
        if predictor != nil { figures.prediction = ForcePredictionScorer() }
        log = keepLog ? ForceLog() : nil
    }

    /// A user's own predictor replaced the configured one: it predicts
    /// positions only, so predicted touches carry the delivered force.
    func dropPredictor() {
        predictor = nil
        figures.prediction = nil
    }

    /// The true force at `t`.
    func trueForce(_ t: SimTime) -> Double { truth.state(at: t).force }

    /// A delivery at `now` started handler run `run` on `touches` (the last
    /// is the main touch).
    func delivered(_ touches: Ring<Touch>, run: Int64, now: SimTime) {
        let recognizes = settings.interaction == .peekPop
        for i in 0..<touches.count {
            let t = touches[i]
            log?.delivered.append(.init(sampleTime: t.time, deliveredAt: now, force: t.force))
            if predictor != nil {
                if t.began { predictor!.reset() }
                predictor!.observe(time: t.time, force: t.force)
            }
            guard recognizes else { continue }
            let out = recognizer.observe(time: t.time, force: t.force, began: t.began)
            if out.rejected { figures.rejected += 1 }
            if let ended = out.ended {
                if ended == .previewing { figures.cancelled += 1 }
                interactionFloor = t.time
            }
            if let stage = out.recognised { recognised(stage, touch: t, run: run, now: now) }
        }
        let main = touches[touches.count - 1]
        var force = main.force
        if predictor != nil, let p = predictor!.predict(horizon: horizon, maximum: settings.maximumForce) {
            force = p
            let target = main.time + horizon
            figures.prediction!.recordPrediction(predicted: p, truth: trueForce(target))
        }
        let progress = recognizes ? recognizer.progress(main.force) : 0
        drawn.append(Drawn(run: run, force: force, state: recognizer.state, progress: progress))
    }

    /// A stage recognised on `touch` at the delivery `now`: its true
    /// crossing, the haptic tap, its animation and the photon it waits for.
    func recognised(_ stage: PreviewState, touch: Touch, run: Int64, now: SimTime) {
        let peek = stage == .previewing
        let level = peek ? settings.peek : settings.pop
        let release = peek ? settings.peekRelease : settings.popRelease
        let earliest = peek ? interactionFloor : peekCrossing
        var cursor = truth
        let crossing = ForceCrossing.rise(to: level, from: release, near: touch.time, earliest: earliest, latest: now) {
            cursor.state(at: $0).force
        }
        truth = cursor
        let felt = haptics.play(at: now)
        figures.hapticTaps = haptics.taps
        if peek {
            figures.peek.recognized += 1
        } else {
            figures.pop.recognized += 1
        }
        if let crossing {
            if peek { peekCrossing = crossing }
            let toDecision = Double(now - crossing) / 1e6, toHaptic = Double(felt - crossing) / 1e6
            if peek {
                figures.peek.crossingToRecognitionMs.record(toDecision)
                figures.peek.crossingToHapticMs.record(toHaptic)
            } else {
                figures.pop.crossingToRecognitionMs.record(toDecision)
                figures.pop.crossingToHapticMs.record(toHaptic)
            }
        } else if peek {
            figures.peek.withoutCrossing += 1
            peekCrossing = touch.time
        } else {
            figures.pop.withoutCrossing += 1
        }
        let length = peek ? settings.peekAnimation : settings.popAnimation
        if length > 0 {
            let longest = pendingAnimation.map { $0.run == run ? Swift.max($0.length, length) : length } ?? length
            pendingAnimation = (run, longest)
        }
        log?.recognitions.append(.init(stage: stage, crossing: crossing, decision: now, haptic: felt, photon: nil))
        pendingPhotons.append(PendingPhoton(stage: stage, run: run, crossing: crossing,
                                            logIndex: (log?.recognitions.count ?? 0) - 1))
    }

    /// Handler run `run` commits at `now`: returns the end of the animation
    /// its commit starts, if it starts one.
    func committed(run: Int64, now: SimTime) -> SimTime? {
        var started: SimTime?
        if let a = pendingAnimation, a.run == run {
            pendingAnimation = nil
            animatingUntil = Swift.max(animatingUntil, now + a.length)
            started = animatingUntil
            log?.animations.append(now..<(now + a.length))
        }
        if now < animatingUntil, let i = drawn.lastIndex(where: { $0.run == run }) { drawn[i].animated = true }
        return started
    }

    /// A frame latched at `latch` shows `commit`; `measured` when it carries
    /// new touch content.
    func frameShown(latch: SimTime, commit c: Commit, measured: Bool) {
        let photon = geometry.photonTime(latch: latch, y: c.mainTouch.position.y)
        while let p = pendingPhotons.first, p.run <= c.handlerRun {
            pendingPhotons.removeFirst()
            if p.logIndex >= 0 { log?.recognitions[p.logIndex].photon = photon }
            guard let crossing = p.crossing else { continue }
            let ms = Double(photon - crossing) / 1e6
            if p.stage == .previewing { figures.peek.crossingToPhotonMs.record(ms) } else { figures.pop.crossingToPhotonMs.record(ms) }
        }
        while let first = drawn.first, first.run < c.handlerRun { drawn.removeFirst() }
        guard measured, let d = drawn.first, d.run == c.handlerRun else { return }
        let ttp = Double(photon - c.mainTouch.time) / 1e6
        if d.animated { figures.touchToPhotonAnimatingMs.record(ttp) } else { figures.touchToPhotonOtherwiseMs.record(ttp) }
        let truth = trueForce(photon)
        let error = truth - d.force
        figures.forceErrorAtPhoton.record(Swift.abs(error))
        figures.signedErrorSum.add(error)
        if predictor != nil { figures.prediction!.recordPhoton(drawn: d.force, truth: truth) }
        if settings.interaction == .peekPop {
            let trueProgress = ForceRecognizer.progress(truth, state: d.state, peek: settings.peek, pop: settings.pop)
            if d.progress > 0 || trueProgress > 0 || d.state != .idle { figures.progressLag.record(trueProgress - d.progress) }
        }
        log?.shown.append(.init(photon: photon, force: d.force, progress: d.progress))
    }

    /// The figures of the finished run.
    func finish() -> ForceMeasurements {
        figures.settle()
        return figures
    }
}
