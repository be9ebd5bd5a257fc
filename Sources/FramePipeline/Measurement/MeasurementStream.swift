import SimKernel

extension Measurements {
    /// A latency stream of a run's measurements, by name: what a figure
    /// declares it reads (Measures' `FigureCatalogue`), lent by
    /// ``read(_:_:)``. Handed out by a closure that returned it, each of a
    /// sweep point's dozen figures had copied its stream three times (161
    /// bytes and three references each); lent, it is copied once into the
    /// argument, with no reference retained.
    public enum Stream: Sendable, CaseIterable {
        case touchToPhotonMs, pipelineFrames, effectiveMs, effectiveFrames, perSampleMs, frameToPhotonMs
        case tapToPhotonMs, touchDownMs, liftToPhotonMs, touchUpMs, firstTouchMs, steadyTouchMs
        /// ``ScrollMeasurements``' streams (none in a run that does not scroll).
        case scrollStartMs, scrollToPhotonMs, scrollTrailPoints
        /// ``InkMeasurements``' streams (none in a run without ink).
        case penToInkMs, dryCommitMs
        /// ``ForceMeasurements``' streams (none in a run without force).
        case peekDecidedMs, peekHapticMs, peekPhotonMs, popDecidedMs, popHapticMs, popPhotonMs
        case touchToPhotonAnimatingMs, touchToPhotonOtherwiseMs, forceErrorAtPhoton
    }

    /// `body` of stream `s`, lent; nil when the run has no such
    /// stream (a scroll, ink or force stream of a run without one).
    @_specialize(exported: true, where R == Double?)
    public func read<R>(_ s: Stream, _ body: (borrowing StreamingStats) -> R) -> R? {
        switch s {
        case .touchToPhotonMs: return body(touchToPhotonMs)
        case .pipelineFrames: return body(pipelineFrames)
        case .effectiveMs: return body(effectiveMs)
        case .effectiveFrames: return body(effectiveFrames)
        case .perSampleMs: return body(perSampleMs)
        case .frameToPhotonMs: return body(frameToPhotonMs)
        case .tapToPhotonMs: return body(tapToPhotonMs)
        case .touchDownMs: return body(touchDownMs)
        case .liftToPhotonMs: return body(liftToPhotonMs)
        case .touchUpMs: return body(touchUpMs)
        case .firstTouchMs: return body(firstTouchMs)
        case .steadyTouchMs: return body(steadyTouchMs)
        case .scrollStartMs: return readScroll { body($0.startMs) }
        case .scrollToPhotonMs: return readScroll { body($0.scrollToPhotonMs) }
        case .scrollTrailPoints: return readScroll { body($0.trailPoints) }
        case .penToInkMs: return readInk { body($0.penToInkMs) }
        case .dryCommitMs: return readInk { body($0.dryCommitMs) }
        case .peekDecidedMs: return readForce { body($0.peek.crossingToRecognitionMs) }
        case .peekHapticMs: return readForce { body($0.peek.crossingToHapticMs) }
        case .peekPhotonMs: return readForce { body($0.peek.crossingToPhotonMs) }
        case .popDecidedMs: return readForce { body($0.pop.crossingToRecognitionMs) }
        case .popHapticMs: return readForce { body($0.pop.crossingToHapticMs) }
        case .popPhotonMs: return readForce { body($0.pop.crossingToPhotonMs) }
        case .touchToPhotonAnimatingMs: return readForce { body($0.touchToPhotonAnimatingMs) }
        case .touchToPhotonOtherwiseMs: return readForce { body($0.touchToPhotonOtherwiseMs) }
        case .forceErrorAtPhoton: return readForce { body($0.forceErrorAtPhoton) }
        }
    }
}
