import SimKernel

/// UIKit event delivery. `coalesced` (iOS 9): at each frame start
/// `F_k = V_k + dispatchDelay`, if the app is idle, every waiting sample is
/// delivered at once (the newest is the main touch). `perScan`: a sample is
/// delivered as soon as it is ready if the app is idle, else the waiting
/// ones go together when it becomes idle.
extension PipelineRun {
    /// A delivery event: a frame start (`coalesced`) or a per-scan dispatch.
    mutating func frameStart(_ now: SimTime) {
        if configuration.delivery == .coalesced {
            queue.schedule(at: frameStartTicker.advance() + configuration.dispatchDelay, kind: PipelineEvent.delivery.rawValue)
        } else {
            deliveryScheduled = false
        }
        if !appBusy && !waiting.isEmpty { deliver(now) }
    }

    /// `perScan`: asks for a delivery now, once, if the app is idle and
    /// samples wait (it happens after everything else at this instant).
    mutating func requestPerScanDelivery(_ now: SimTime) {
        guard configuration.delivery == .perScan, !deliveryScheduled, !appBusy, !waiting.isEmpty else { return }
        deliveryScheduled = true
        queue.schedule(at: now, kind: PipelineEvent.delivery.rawValue)
    }

    /// Hands every waiting sample to the app's main thread.
    mutating func deliver(_ now: SimTime) {
        measurements.deliveries += 1
        var last = nextSampleToDeliver
        for i in 0..<waiting.count {
            let index = waiting[i].index
            if index <= last { invariants.samplesOutOfOrder += 1 }
            last = index
        }
        nextSampleToDeliver = last
        samplesDelivered += waiting.count
        log?.deliveries.append(.init(time: now, first: waiting.first!.index, last: waiting.last!.index, count: waiting.count))
        startHandler(now)
        waiting.removeAll(keepingCapacity: true)
    }
}
