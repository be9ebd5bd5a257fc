import SimKernel
import TouchModel

/// Multi-Touch: the digitizer scans in windows `[W_j, W_j+1)` at `scanHz`;
/// each window yields one sample while the finger touches, taken at
/// `sampleInstant` of the window and ready at `W_j+1 + digitizerDelay`.
extension PipelineRun {
    /// Schedules the ready event of the current scan window.
    mutating func scheduleNextSample() {
        var next = scanTicker
        let windowEnd = next.advance()
        queue.schedule(at: windowEnd + configuration.digitizerDelay, kind: PipelineEvent.sampleReady.rawValue)
    }

    /// A scan window's sample is ready.
    mutating func sampleReady(_ now: SimTime) {
        let window = scanTicker.index
        let w0 = scanTicker.time
        let w1 = scanTicker.advance()
        // a window is one of two widths (the period rounded down or up):
        // the offset of the sample instant is computed once for each
        let width = w1 - w0
        let offset: SimTime
        if width == sampleOffsetWidths.0 {
            offset = sampleOffsets.0
        } else if width == sampleOffsetWidths.1 {
            offset = sampleOffsets.1
        } else {
            let si = configuration.sampleInstant
            offset = Int64(roundHalfUp(Int128(si.numerator) * Int128(width), Int128(si.denominator)))
            sampleOffsetWidths = (width, sampleOffsetWidths.0)
            sampleOffsets = (offset, sampleOffsets.0)
        }
        let instant = w0 + offset
        let finger = finger.state(at: instant)
        if finger.isDown {
            var position = finger.position
            if configuration.noise.sigma > 0 || configuration.noise.quantum > 0 {
                position = configuration.noise.apply(position, rng: &noiseRNG)
            }
            let sample = Sample(index: window, time: instant, windowStart: w0,
                                position: position, strokeBegan: !fingerWasDown)
            waiting.append(sample)
            measurements.samples += 1
            log?.scans.append(.init(windowStart: w0, windowEnd: w1, instant: instant, ready: now, index: window))
        }
        fingerWasDown = finger.isDown
        scheduleNextSample()
        if configuration.delivery == .perScan { requestPerScanDelivery(now) }
    }
}
