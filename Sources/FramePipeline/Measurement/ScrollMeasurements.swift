import SimKernel
import TouchModel

/// A scrolling app's figures (`app.scrolls`; Docs/Model.md, "Scrolling").
public struct ScrollMeasurements: Sendable {
    /// From each gesture's contact to the photon of the first frame whose
    /// content moved, ms (time to first scroll movement).
    public var startMs = Measurements.milliseconds()
    /// Scroll-to-photon: at each frame with new content once the content
    /// scrolls, its photon time minus the true time of the finger position
    /// the content follows, ms.
    public var scrollToPhotonMs = Measurements.milliseconds()
    /// At the same photons while the finger is still down, how far the
    /// content trails the finger: the distance between the finger and the
    /// content point that was under it at touch-down, points.
    public var trailPoints = Measurements.milliseconds()

    mutating func settle() {
        startMs.settle()
        scrollToPhotonMs.settle()
        trailPoints.settle()
    }
}

/// What a scroll view does with the touches it is shown (Android's
/// `ScrollView.onTouchEvent`): the content stays put until a touch lies
/// more than the slop from the touch-down along the scroll axis (y); from
/// then on it follows the finger less the slop, so it does not jump. The
/// tracker follows the frames shown (in the order of their content) and
/// records ``ScrollMeasurements``. A class, as ``BudgetRecorder`` is: a run
/// that does not scroll carries one empty reference, not its streams.
final class ScrollTracker {
    /// The slop, points.
    let slop: Double
    /// The finger's motion, for each gesture's contact.
    let trajectory: Trajectory
    /// Touch-downs the app drew and no shown frame has reached yet: the
    /// down's sample time and reported y.
    private var downs = Ring<(time: SimTime, y: Double)>(capacity: 4)
    private var lastDown: SimTime = .min
    /// The gesture of the newest frame shown.
    private var gesture: (contact: SimTime, y0: Double, direction: Double, begun: Bool, moved: Bool)?
    var figures = ScrollMeasurements()

    init(slop: Double, trajectory: Trajectory) {
        self.slop = slop
        self.trajectory = trajectory
    }

    /// The app drew `touch` (a touch-down opens a gesture).
    func drew(_ touch: Touch) {
        guard touch.began, touch.time > lastDown else { return }
        lastDown = touch.time
        downs.append((touch.time, touch.position.y))
    }

    /// A frame whose newest drawn touch is `s` reaches the photon at
    /// `photon`, when the finger is `finger`.
    func shown(_ s: Touch, photon: SimTime, finger: FingerState) {
        while let d = downs.first, d.time <= s.time {
            _ = downs.popFirst()
            gesture = (trajectory.gestureContact(atOrBefore: d.time) ?? d.time, d.y, 0, false, false)
        }
        guard var g = gesture else { return }
        let delta = s.position.y - g.y0
        if !g.begun {
            guard abs(delta) > slop else { return }
            g.begun = true
            g.direction = delta > 0 ? 1 : -1
        }
        if !g.moved {
            g.moved = true
            figures.startMs.record(Double(photon - g.contact) / 1e6)
        }
        gesture = g
        figures.scrollToPhotonMs.record(Double(photon - s.time) / 1e6)
        // the content is offset by delta - direction * slop: the point under the finger at touch-down is there
        guard finger.isDown else { return }
        let content = g.y0 + delta - g.direction * slop
        figures.trailPoints.record(abs(finger.position.y - content))
    }
}
