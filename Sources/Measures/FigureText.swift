import LatsimOutput
import SimKernel

extension Figure {
    /// A value of the figure as a plain decimal at its declared precision
    /// (``places``, the precision `compare` judges "same" at): the one form
    /// of a figure's value in CSV and in plain table cells, so that one
    /// value never prints as `49.999999` in one place and `50` in another.
    /// The JSON result files keep the full value.
    public func text(_ value: Double) -> String { formatDecimal(value, places: places) }
    /// ``text(_:)``'s digits appended to `out` as bytes.
    public func appendText(_ value: Double, to out: inout RawBytes) { out.appendDecimal(value, places: places) }
}
