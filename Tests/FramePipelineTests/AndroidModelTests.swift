@testable import FramePipeline
import Scenarios
import SimKernel
import Testing
import TouchModel

/// AOSP's own cases: InputConsumer's resampling (TouchResampling_test and
/// the constants of InputConsumer.cpp), SurfaceFlinger's `maxAcquired` and
/// VsyncConfiguration's phase-offset conversion.
@Suite struct AndroidModelTests {
    static let ms = Nanos.perMillisecond

    /// A sample whose evdev time and physical time are both `t` ms.
    static func sample(_ t: Double, x: Double) -> Touch {
        let ns = SimTime((t * 1e6).rounded())
        return Touch(scan: 0, time: ns, windowStart: 0, ready: ns, position: TouchPoint(x: x, y: 0), began: false)
    }

    /// TouchResampling_test EventIsResampled: DOWN at 0 ms (x 10), MOVEs at
    /// 10 and 20 ms (x 20, 30), frame time 35 ms: the target 30 ms is capped
    /// at `20 + min(10/2, 8)` = 25 ms, x = 35.
    @Test func aospGoldenCaseIsResampledAtTwentyFiveMilliseconds() {
        let p = Resampler.resample(current: Self.sample(20, x: 30), next: nil, previous: Self.sample(10, x: 20),
                                   sampleTime: 35 * Self.ms - 5 * Self.ms)
        #expect(p == Resampler.Point(kind: .extrapolated, eventTime: 25 * Self.ms, position: TouchPoint(x: 35, y: 0),
                                     physicalTime: 25 * Self.ms))
    }

    /// Over a 20 ms interval half is 10 ms: RESAMPLE_MAX_PREDICTION caps it at 8 ms.
    @Test func extrapolationIsCappedAtEightMilliseconds() {
        let p = Resampler.resample(current: Self.sample(20, x: 30), next: nil, previous: Self.sample(0, x: 10),
                                   sampleTime: 50 * Self.ms)
        #expect(p?.eventTime == 28 * Self.ms && p?.position.x == 38)
    }

    /// RESAMPLE_MAX_DELTA (20 ms) and RESAMPLE_MIN_DELTA (2 ms) bound the
    /// interval extrapolated over.
    @Test func noExtrapolationOverMoreThanTwentyOrLessThanTwoMilliseconds() {
        #expect(Resampler.resample(current: Self.sample(30, x: 30), next: nil, previous: Self.sample(9, x: 10), sampleTime: 50 * Self.ms) == nil)
        #expect(Resampler.resample(current: Self.sample(30, x: 30), next: nil, previous: Self.sample(28.5, x: 10), sampleTime: 50 * Self.ms) == nil)
        #expect(Resampler.resample(current: Self.sample(30, x: 30), next: nil, previous: Self.sample(10, x: 10), sampleTime: 50 * Self.ms) != nil)
        #expect(Resampler.resample(current: Self.sample(30, x: 30), next: nil, previous: nil, sampleTime: 50 * Self.ms) == nil)
    }

    /// Interpolation toward a waiting sample: alpha = (25 - 20) / (30 - 20)
    /// = 0.5: x 40, physical time 25 ms.
    @Test func interpolationTowardAWaitingSample() {
        let p = Resampler.resample(current: Self.sample(20, x: 30), next: Self.sample(30, x: 50), previous: Self.sample(10, x: 20),
                                   sampleTime: 25 * Self.ms)
        #expect(p == Resampler.Point(kind: .interpolated, eventTime: 25 * Self.ms, position: TouchPoint(x: 40, y: 0),
                                     physicalTime: 25 * Self.ms))
    }

    /// A waiting sample less than 2 ms away: no point, and no fall-back to
    /// extrapolation (AOSP's resampleTouchState returns).
    @Test func aWaitingSampleCloserThanTwoMillisecondsGivesNoPoint() {
        #expect(Resampler.resample(current: Self.sample(20, x: 30), next: Self.sample(21, x: 50), previous: Self.sample(10, x: 20),
                                   sampleTime: 20_500_000) == nil)
    }

    /// The physical time follows the evdev fraction exactly, then is
    /// rounded half up: alpha = 5,555,555 / 16,666,667 of a physical span of
    /// 16,666,668 ns is 5,555,555.33 ns: 8,333,333 + that = 13,888,888.33,
    /// so 13,888,888; with sample time 1 ns later, 13,888,889.33: 13,888,889.
    @Test func thePhysicalTimeUsesTheSameFractionExactly() {
        let cur = Touch(scan: 1, time: 8_333_333, windowStart: 0, ready: 16_666_666, position: .zero, began: false)
        let next = Touch(scan: 2, time: 25_000_001, windowStart: 16_666_666, ready: 33_333_333, position: TouchPoint(x: 3, y: 0), began: false)
        #expect(Resampler.resample(current: cur, next: next, previous: nil, sampleTime: 22_222_221)?.physicalTime == 13_888_888)
        #expect(Resampler.resample(current: cur, next: next, previous: nil, sampleTime: 22_222_222)?.physicalTime == 13_888_889)
    }

    /// `maxAcquired + 2`: 3 buffers at 60 Hz (auto: 32.33 ms of budget), 4 on
    /// the Pixel 4 (90 Hz, 31 ms), 5 on the Pixel 6 (120 Hz, 27.1 ms), 4 at
    /// 120 Hz with auto durations (PhaseOffsets' high-fps 2 / 1 ms: 15.667 +
    /// 7.333 = 23 ms, ceil(23 / 8.333) = 3 periods, maxAcquired 2), and 4 for
    /// the same high-fps offsets given at 90 Hz (21.222 + 10.111 ms).
    @Test func hwuiBuffersAreMaxAcquiredPlusTwo() {
        func buffers(_ hz: Int64, app: WorkDuration = .auto, sf: WorkDuration = .auto, offsets: (SimTime, SimTime)? = nil) -> Int {
            var s = AndroidSettings()
            s.appDuration = app
            s.sfDuration = sf
            s.appPhaseOffset = offsets?.0
            s.sfPhaseOffset = offsets?.1
            return AndroidTiming(s, displayHz: Rational(hz)).buffers
        }
        #expect(buffers(60) == 3)
        #expect(buffers(90, app: .fixed(20_500_000), sf: .fixed(10_500_000)) == 4)
        #expect(buffers(120, app: .fixed(16_600_000), sf: .fixed(10_500_000)) == 5)
        #expect(buffers(120) == 4)
        #expect(buffers(90, offsets: (2 * Self.ms, Self.ms)) == 4)
    }

    /// VsyncConfiguration's conversion, in pairs (app, sf offsets -> durations):
    /// Nexus 5 7.5/5 ms -> 30.833/11.667 ms; 1/1 ms = auto; 0/0 ms (before
    /// Android 10) -> T/T; 2/-2 ms -> 29.333/18.667 ms (below T: plus T);
    /// 1/6 ms -> 21.667/10.667 ms.
    @Test func phaseOffsetsConvertToWorkDurations() {
        func d(_ app: Double, _ sf: Double) -> [SimTime] {
            let r = AndroidTiming.durations(appPhaseOffset: SimTime(app * 1e6), sfPhaseOffset: SimTime(sf * 1e6), displayHz: Rational(60))
            return [r.app, r.sf]
        }
        #expect(d(7.5, 5) == [30_833_333, 11_666_667])
        #expect(d(1, 1) == [16_666_667, 15_666_667])
        #expect(d(0, 0) == [16_666_667, 16_666_667])
        #expect(d(2, -2) == [29_333_333, 18_666_667])
        #expect(d(1, 6) == [21_666_667, 10_666_667])
        let auto = AndroidTiming(AndroidSettings(), displayHz: Rational(60))
        #expect(auto.appDuration == 16_666_667 && auto.sfDuration == 15_666_667)
    }

    /// FrameTimeline in AOSP's order, on hand-made frames at 60 Hz (deadline
    /// `V - D_sf`, 2 ms present threshold, stuffing tested first).
    @Test func frameTimelineClassesAsAOSPDoes() {
        let timeline = FrameTimeline(displayHz: Rational(60))
        let v: SimTime = 100_000_000, deadline = v - 15_666_667
        func frame(end: SimTime, previousLatch: SimTime = -1) -> AndroidFrame {
            var f = AndroidFrame(seq: 0, content: nil, frameTime: v - 32_333_334, expected: v, deadline: deadline)
            f.queued = end - 4_000_000
            f.gpuDone = end
            f.previousLatch = previousLatch
            return f
        }
        #expect(timeline.classify(frame(end: deadline), present: v + 2_000_000) == .onTime)
        #expect(timeline.classify(frame(end: deadline + 1), present: v + 16_666_667) == .appDeadlineMissed)
        #expect(timeline.classify(frame(end: deadline), present: v + 16_666_667) == .surfaceFlingerDeadlineMissed)
        // the buffer before was latched at the deadline: judged against lastLatch + T
        #expect(timeline.classify(frame(end: deadline + 16_666_667, previousLatch: deadline), present: v + 16_666_667) == .bufferStuffing)
        #expect(timeline.classify(frame(end: deadline + 16_666_668, previousLatch: deadline), present: v + 16_666_667) == .appDeadlineMissed)
        var gl = frame(end: deadline)
        gl.expected = -1
        #expect(timeline.classify(gl, present: v) == .unknown)
    }
}
