@testable import FramePipeline
import SimKernel
import Testing

/// `Measurements.read(_:_:)` lends the stream a `Measurements.Stream` names:
/// each case reads its own field (every stream holds a different value
/// here, so a case read from another field is seen), and a stream of
/// figures a run does not have (scroll, ink, force) reads as nil.
struct MeasurementStreamTests {
    /// Each stream with the value recorded in it below.
    static let recorded: [(Measurements.Stream, Double)] = [
        (.touchToPhotonMs, 1), (.pipelineFrames, 2), (.effectiveMs, 3), (.effectiveFrames, 4), (.perSampleMs, 5),
        (.frameToPhotonMs, 6), (.tapToPhotonMs, 7), (.touchDownMs, 8), (.liftToPhotonMs, 9), (.touchUpMs, 10),
        (.firstTouchMs, 11), (.steadyTouchMs, 12), (.scrollStartMs, 13), (.scrollToPhotonMs, 14), (.scrollTrailPoints, 15),
        (.penToInkMs, 16), (.dryCommitMs, 17), (.peekDecidedMs, 18), (.peekHapticMs, 19), (.peekPhotonMs, 20),
        (.popDecidedMs, 21), (.popHapticMs, 22), (.popPhotonMs, 23), (.touchToPhotonAnimatingMs, 24),
        (.touchToPhotonOtherwiseMs, 25), (.forceErrorAtPhoton, 26),
    ]

    /// Measurements with each stream's value recorded in the field it
    /// stands for.
    static func measurements(optionalFigures: Bool) -> Measurements {
        var m = Measurements()
        m.touchToPhotonMs.record(1); m.pipelineFrames.record(2); m.effectiveMs.record(3); m.effectiveFrames.record(4)
        m.perSampleMs.record(5); m.frameToPhotonMs.record(6); m.tapToPhotonMs.record(7); m.touchDownMs.record(8)
        m.liftToPhotonMs.record(9); m.touchUpMs.record(10); m.firstTouchMs.record(11); m.steadyTouchMs.record(12)
        guard optionalFigures else { return m }
        var scroll = ScrollMeasurements()
        scroll.startMs.record(13); scroll.scrollToPhotonMs.record(14); scroll.trailPoints.record(15)
        m.scroll = scroll
        var ink = InkMeasurements()
        ink.penToInkMs.record(16); ink.dryCommitMs.record(17)
        m.ink = ink
        var force = ForceMeasurements(interaction: .peekPop, widthPerForce: 2)
        force.peek.crossingToRecognitionMs.record(18); force.peek.crossingToHapticMs.record(19)
        force.peek.crossingToPhotonMs.record(20); force.pop.crossingToRecognitionMs.record(21)
        force.pop.crossingToHapticMs.record(22); force.pop.crossingToPhotonMs.record(23)
        force.touchToPhotonAnimatingMs.record(24); force.touchToPhotonOtherwiseMs.record(25)
        force.forceErrorAtPhoton.record(26)
        m.force = force
        return m
    }

    @Test func everyStreamIsNamedOnce() {
        #expect(Self.recorded.count == Measurements.Stream.allCases.count)
        #expect(Set(Self.recorded.map(\.0)) == Set(Measurements.Stream.allCases))
    }

    @Test func eachStreamReadsItsOwnField() {
        let m = Self.measurements(optionalFigures: true)
        for (stream, value) in Self.recorded {
            // the value recorded is within the stream's resolution of itself
            let read = m.read(stream) { $0.count == 1 ? $0.max : nil } ?? nil
            #expect(read.map { abs($0 - value) < 0.01 } == true, "\(stream): \(String(describing: read)) for \(value)")
        }
    }

    @Test func aStreamOfFiguresTheRunDoesNotHaveReadsAsNil() {
        let m = Self.measurements(optionalFigures: false)
        for (stream, _) in Self.recorded {
            let optional: Set<Measurements.Stream> = [.scrollStartMs, .scrollToPhotonMs, .scrollTrailPoints, .penToInkMs, .dryCommitMs,
                                                       .peekDecidedMs, .peekHapticMs, .peekPhotonMs, .popDecidedMs, .popHapticMs,
                                                       .popPhotonMs, .touchToPhotonAnimatingMs, .touchToPhotonOtherwiseMs,
                                                       .forceErrorAtPhoton]
            let read: Int? = m.read(stream) { $0.count }
            #expect((read == nil) == optional.contains(stream), "\(stream)")
        }
    }
}
