import FramePipeline
import SimKernel

/// A span of work (or of screen time) in one lane of a pipeline diagram.
public struct DiagramBox: Sendable, Equatable {
    /// The name of display buffer `index` (0 is A): a box's label and the
    /// legend's entry for its colour.
    public static func bufferName(_ index: Int) -> String {
        "buffer \(Character(UnicodeScalar(UInt8(65 + ((index % 26) + 26) % 26))))"
    }

    /// The lane the box sits in.
    public var lane: PipelineLane
    /// Start of the span (simulated ns).
    public var startNs: SimTime
    /// End of the span (simulated ns), after `startNs`.
    public var endNs: SimTime
    /// Text printed inside the box when it fits (e.g. "buffer A"). Frames
    /// are numbered once, by the time axis (display frames from the
    /// window's start); a box names the buffer it draws into or shows,
    /// never a frame number of its own.
    public var label: String
    /// Picks the fill colour: typically the display buffer the frame renders
    /// into, so double buffering shows two colours and triple three.
    public var colorKey: Int
    /// Whether the box is part of the followed touch's journey (drawn solid
    /// with a dark outline; other boxes are drawn faint).
    public var highlighted: Bool

    /// A box from its parts.
    public init(lane: PipelineLane, startNs: SimTime, endNs: SimTime, label: String = "",
                colorKey: Int = 0, highlighted: Bool = false) {
        self.lane = lane
        self.startNs = startNs
        self.endNs = endNs
        self.label = label
        self.colorKey = colorKey
        self.highlighted = highlighted
    }
}

/// An instant marked in one lane, such as a commit (the talk's red dot).
public struct DiagramMarker: Sendable, Equatable {
    /// The lane the marker sits in.
    public var lane: PipelineLane
    /// When it happened (simulated ns).
    public var timeNs: SimTime
    /// The kind of instant ("commit"); markers with the same label share a
    /// colour and one legend entry.
    public var label: String
    /// A screen row (0 top, 1 bottom) to draw it at within its lane, where
    /// a scan line is drawn (``DiagramScanLine``); nil: the lane's usual place.
    public var row: Double?

    /// A marker from its parts.
    public init(lane: PipelineLane, timeNs: SimTime, label: String = "commit", row: Double? = nil) {
        self.lane = lane
        self.timeNs = timeNs
        self.label = label
        self.row = row
    }
}

/// One point of the followed touch's path through the lanes.
public struct DiagramPathPoint: Sendable, Equatable {
    /// The lane.
    public var lane: PipelineLane
    /// The instant (simulated ns).
    public var timeNs: SimTime
    /// A screen row (0 top, 1 bottom) within the lane (the photons of a
    /// front-buffer draw, on the scan line); nil: the lane's usual place.
    public var row: Double?

    /// A path point from its parts.
    public init(lane: PipelineLane, timeNs: SimTime, row: Double? = nil) {
        self.lane = lane
        self.timeNs = timeNs
        self.row = row
    }
}

/// A short vertical tick across one lane at an instant, such as Android's
/// vsync-app and vsync-sf; ticks with the same label share a colour and one
/// legend entry.
public struct DiagramTick: Sendable, Equatable {
    /// The lane the tick crosses.
    public var lane: PipelineLane
    /// When (simulated ns).
    public var timeNs: SimTime
    /// What it is (`vsync-app`).
    public var label: String
    /// Its colour.
    public var color: UInt32

    /// A tick from its parts.
    public init(lane: PipelineLane, timeNs: SimTime, label: String, color: UInt32) {
        self.lane = lane
        self.timeNs = timeNs
        self.label = label
        self.color = color
    }
}

/// The scan line drawn across one lane of a diagram (Docs/Ink.md): within
/// the lane's height, the row the display is scanning out, from the top at
/// each vsync to the bottom at the next, and the pen's row, so that a
/// front-buffer draw's photons are where the scan line crosses the pen's
/// row after the draw.
public struct DiagramScanLine: Sendable, Equatable {
    /// The lane it is drawn in (the display's).
    public var lane: PipelineLane
    /// The pen's row as a fraction of the screen's height (0 top), drawn
    /// as a dotted line across the lane; nil: none.
    public var penRow: Double?

    /// A scan line from its parts.
    public init(lane: PipelineLane, penRow: Double?) {
        self.lane = lane
        self.penRow = penRow
    }
}
