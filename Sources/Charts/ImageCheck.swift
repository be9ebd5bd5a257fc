import Foundation

/// Whether a file gnuplot wrote is a whole image, judged by its bytes
/// rather than by gnuplot's exit status (gnuplot exits 0 after a write
/// failed on a full disk, leaving part of an image).
///
/// - PNG: the 8-byte signature first and the `IEND` chunk (with its CRC,
///   `AE 42 60 82`) last; every PNG ends so (PNG specification, 11.2.5).
/// - SVG: an `<svg` element near the start and the document ending with
///   `</svg>` (trailing white space allowed).
public enum ImageCheck {
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    static let pngEnd: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]

    /// What is wrong with the image bytes `data` of `format`, or nil when
    /// they are a whole image.
    public static func problem(_ data: Data, format: ChartFormat) -> String? {
        let bytes = [UInt8](data)
        switch format {
        case .png:
            guard Array(bytes.prefix(8)) == Array(pngSignature.prefix(bytes.count)) else {
                return "not a PNG image (no PNG signature)"
            }
            guard bytes.count >= pngSignature.count + pngEnd.count, Array(bytes.suffix(pngEnd.count)) == pngEnd else {
                return "a PNG image cut short (\(bytes.count) bytes, no IEND chunk)"
            }
            return nil
        case .svg:
            let head = String(decoding: bytes.prefix(4096), as: UTF8.self)
            guard head.contains("<svg") else { return "not an SVG image (no <svg element)" }
            var end = bytes.count
            while end > 0, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[end - 1]) { end -= 1 }
            guard end >= 6, Array(bytes[(end - 6)..<end]) == Array("</svg>".utf8) else {
                return "an SVG image cut short (\(bytes.count) bytes, no closing </svg>)"
            }
            return nil
        }
    }

    /// ``problem(_:format:)`` for the file at `path`.
    public static func problem(path: String, format: ChartFormat) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return "unreadable" }
        return problem(data, format: format)
    }
}
