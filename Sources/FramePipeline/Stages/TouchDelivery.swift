import SimKernel

/// UIKit's touch delivery (Docs/Model.md, "Event delivery").
///
/// `coalesced` (iOS 9): at each frame start `F_k = V_k + dispatchDelay`, if
/// the app is idle, every waiting touch is delivered at once; the newest is
/// the main touch, all of them are the coalesced touches. `perScan`: a touch
/// is delivered as soon as it is ready if the app is idle, else the waiting
/// ones go together when it becomes idle.
struct TouchDelivery {
    let policy: DeliveryPolicy
    let dispatchDelay: SimTime
    var vsyncs: SwitchingTicker
    /// Touches ready and not yet delivered, oldest first.
    private(set) var waiting = Ring<Touch>()
    /// A per-scan delivery is scheduled for the current instant.
    var perScanPending = false
    /// The scan index of the last touch delivered.
    var lastDelivered: Int64 = -1
    private(set) var delivered = 0
    private(set) var deliveries = 0
    /// Deliveries whose touches were not in scan order (an invariant).
    private(set) var outOfOrder = 0
    /// Touches taken by mid-frame reads (MidFrameRead.swift), and those
    /// not in scan order (an invariant).
    var lateDelivered = 0
    var outOfOrderLate = 0
    var lateReads = 0

    // inlined into the models' initialisers, so that it is made in its
    // place in the model (called, it was made aside and copied in)
    @inline(__always)
    init(configuration c: borrowing PipelineConfiguration) {
        policy = c.delivery
        dispatchDelay = c.dispatchDelay
        vsyncs = SwitchingTicker(clock: c.vsyncClock)
    }

    /// The first frame start, or nil under `perScan` (no frame starts).
    var firstFrameStart: SimTime? { policy == .coalesced ? vsyncs.time + dispatchDelay : nil }

    /// A touch is ready.
    mutating func receive(_ touch: Touch) { waiting.append(touch) }

    /// A frame start (`coalesced`): returns the next one.
    mutating func nextFrameStart() -> SimTime { vsyncs.advance() + dispatchDelay }

    /// A per-scan delivery (`perScan`): the pending request is served.
    mutating func perScanServed() { perScanPending = false }

    /// `perScan`: whether to schedule a delivery now (once per instant, when
    /// the app is idle and touches wait).
    mutating func wantsPerScanDelivery(appIdle: Bool) -> Bool {
        guard policy == .perScan, !perScanPending, appIdle, !waiting.isEmpty else { return false }
        perScanPending = true
        return true
    }

    /// True when a delivery would hand touches to an idle app.
    var hasWaiting: Bool { !waiting.isEmpty }

    /// Hands the waiting touches over: the caller reads ``waiting`` (the
    /// coalesced touches; the last is the main touch), then calls this.
    mutating func handedOver() {
        deliveries += 1
        var last = lastDelivered
        for i in 0..<waiting.count {
            let scan = waiting[i].scan
            if scan <= last { outOfOrder += 1 }
            last = scan
        }
        lastDelivered = last
        delivered += waiting.count
        waiting.removeAll()
    }
}
