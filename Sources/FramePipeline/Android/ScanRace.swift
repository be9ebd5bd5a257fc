import SimKernel

/// The scan line's race (Docs/Ink.md, "The scan line's race"): content
/// drawn into the buffer being scanned out reaches the eye when the scan-out
/// next passes its row. The panel is scanned top to bottom once a period:
/// row offset `r` (the row's scan-out time after a vsync, `row × T` rounded
/// half up, as every photon time is) is read at `V_k + r` for every vsync
/// `V_k`. So a draw that ends at `t` is seen at row offset `r` from the
/// first `V_k + r` at or after `t`, and a draw that runs over `(start,
/// end)` tears when some `V_k + r` falls strictly inside it: that refresh
/// reads the row while the segment is half drawn.
///
/// Pure functions of the display clock, so the tests derive each case by
/// hand.
public struct ScanRace: Sendable {
    /// The display's vsyncs `V_k`.
    public let clock: PeriodicClock
    /// SurfaceFlinger's work duration `D_sf`: its latch at `V_k - D_sf`
    /// targets `V_k`.
    public let sfDuration: SimTime

    /// The race on a display clock, with SurfaceFlinger's latches `sfDuration`
    /// before their vsyncs.
    public init(clock: PeriodicClock, sfDuration: SimTime) {
        self.clock = clock
        self.sfDuration = sfDuration
    }

    /// The vsync `V_k` of the first scan-out pass over row offset `row` at
    /// or after `t`: the smallest `V_k` with `V_k + row >= t`, and not
    /// before the vsync `from` (a layer shown only from then).
    @inline(__always)
    public func passVsync(atOrAfter t: SimTime, row: SimTime, from: SimTime = 0) -> SimTime {
        // the display's vsyncs start at V_0: none is before it
        let v = clock.tick(Swift.max(0, clock.index(atOrAfter: t - row)))
        return Swift.max(v, from)
    }

    /// The instant the scan-out first passes row offset `row` at or after
    /// `t` (from the vsync `from` on): `V_k + row`.
    @inline(__always)
    public func pass(atOrAfter t: SimTime, row: SimTime, from: SimTime = 0) -> SimTime {
        passVsync(atOrAfter: t, row: row, from: from) + row
    }

    /// True when a draw over `(start, end)` tears at row offset `row`: the
    /// scan-out passes the row strictly inside it, at a vsync from `from` on
    /// (the layer is on screen). A pass at `start` reads the buffer before
    /// the draw, one at `end` after it.
    @inline(__always)
    public func tears(start: SimTime, end: SimTime, row: SimTime, from: SimTime = 0) -> Bool {
        guard end > start + 1 else { return false }
        // the first pass strictly after `start`
        let p = pass(atOrAfter: start + 1, row: row, from: from)
        return p < end
    }

    /// The present of a layer update whose buffer is ready at `t`, through
    /// SurfaceFlinger: latched at its first vsync-sf tick `V_k - D_sf` at or
    /// after `t`, composed there and shown from `V_k`.
    @inline(__always)
    public func composedPresent(readyAt t: SimTime) -> SimTime {
        // ticks exist from the first vsync at or after D_sf (ticks are not before 0)
        clock.tick(Swift.max(clock.index(atOrAfter: t + sfDuration), clock.index(atOrAfter: sfDuration)))
    }
}
