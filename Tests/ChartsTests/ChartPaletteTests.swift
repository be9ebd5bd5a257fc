@testable import Charts
import Foundation
import FramePipeline
import Testing

/// The one palette (``ChartStyle``): every stage of both platforms has a
/// colour of its own that stays apart from the others for readers with a
/// colour-vision deficiency, and no chart names a colour of its own.
///
/// Colours are compared as CIEDE2000 differences of their CIELAB values
/// (sRGB, D65). A deficiency is simulated with the matrices of Machado,
/// Oliveira and Fernandes (2009) at full severity, applied to linear RGB.
/// A difference of about 2 is just noticeable side by side; the floors
/// below are the least differences the palette has (measured when it was
/// chosen: 11.7 between any two stages, 7.7 between two stages of one
/// platform and 9.5 between neighbouring stages under any simulated
/// deficiency), rounded down, so a change that brings two colours closer
/// fails here. The six stages of the ink apps (Docs/Ink.md) were added
/// within the same floors (least: 11.3 between the idle wake and the
/// mid-frame read; 8.1 between a front-buffered draw's render wait and scan
/// race under deuteranopia; neighbours 13.0), and the rate switch wait
/// (least: 14.8 from any stage; under a deficiency 1.3 above the floors).
@Suite struct ChartPaletteTests {
    enum Vision: CaseIterable { case normal, protanopia, deuteranopia, tritanopia }

    /// Machado et al. (2009), severity 1.0, rows of the 3x3 matrix on linear RGB.
    static func matrix(_ v: Vision) -> [[Double]]? {
        switch v {
        case .normal: return nil
        case .protanopia: return [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]
        case .deuteranopia: return [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]
        case .tritanopia: return [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]]
        }
    }

    /// CIELAB of `rgb` as seen with `vision`.
    static func lab(_ rgb: UInt32, _ vision: Vision) -> (l: Double, a: Double, b: Double) {
        func linear(_ c: UInt32) -> Double {
            let v = Double(c & 0xFF) / 255
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        var c = [linear(rgb >> 16), linear(rgb >> 8), linear(rgb)]
        if let m = matrix(vision) { c = m.map { row in Swift.min(1, Swift.max(0, zip(row, c).map(*).reduce(0, +))) } }
        let x = (0.4124 * c[0] + 0.3576 * c[1] + 0.1805 * c[2]) / 0.95047
        let y = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
        let z = (0.0193 * c[0] + 0.1192 * c[1] + 0.9505 * c[2]) / 1.08883
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
    }

    /// The difference of `p` and `q` as seen with `vision`.
    static func difference(_ p: UInt32, _ q: UInt32, _ vision: Vision = .normal) -> Double {
        deltaE2000(lab(p, vision), lab(q, vision))
    }

    /// CIEDE2000 (Sharma, Wu and Dalal 2005).
    static func deltaE2000(_ p: (l: Double, a: Double, b: Double), _ q: (l: Double, a: Double, b: Double)) -> Double {
        let (l1, a1, b1) = p, (l2, a2, b2) = q
        func rad(_ d: Double) -> Double { d * .pi / 180 }
        let cBar = (hypot(a1, b1) + hypot(a2, b2)) / 2
        let g = 0.5 * (1 - (pow(cBar, 7) / (pow(cBar, 7) + pow(25, 7))).squareRoot())
        let a1p = (1 + g) * a1, a2p = (1 + g) * a2
        let c1p = hypot(a1p, b1), c2p = hypot(a2p, b2)
        func hue(_ b: Double, _ a: Double) -> Double {
            let h = atan2(b, a) * 180 / .pi
            return h < 0 ? h + 360 : h
        }
        let h1p = hue(b1, a1p), h2p = hue(b2, a2p)
        var dhp = h2p - h1p
        if c1p * c2p == 0 { dhp = 0 } else if dhp > 180 { dhp -= 360 } else if dhp < -180 { dhp += 360 }
        let dLp = l2 - l1, dCp = c2p - c1p, dHp = 2 * (c1p * c2p).squareRoot() * sin(rad(dhp / 2))
        let lBar = (l1 + l2) / 2, cBarP = (c1p + c2p) / 2
        var hBar = h1p + h2p
        if c1p * c2p != 0 { hBar = abs(h1p - h2p) <= 180 ? hBar / 2 : (hBar < 360 ? (hBar + 360) / 2 : (hBar - 360) / 2) }
        let t = 1 - 0.17 * cos(rad(hBar - 30)) + 0.24 * cos(rad(2 * hBar)) + 0.32 * cos(rad(3 * hBar + 6)) - 0.20 * cos(rad(4 * hBar - 63))
        let dTheta = 30 * exp(-pow((hBar - 275) / 25, 2))
        let rc = 2 * (pow(cBarP, 7) / (pow(cBarP, 7) + pow(25, 7))).squareRoot()
        let sl = 1 + 0.015 * pow(lBar - 50, 2) / (20 + pow(lBar - 50, 2)).squareRoot()
        let sc = 1 + 0.045 * cBarP, sh = 1 + 0.015 * cBarP * t
        let rt = -sin(rad(2 * dTheta)) * rc
        return (pow(dLp / sl, 2) + pow(dCp / sc, 2) + pow(dHp / sh, 2) + rt * (dCp / sc) * (dHp / sh)).squareRoot()
    }

    /// The difference measure itself: two of Sharma et al.'s test pairs
    /// (their Table 1: pair 1, a blue pair, 2.0425; pair 17, 27.1492), and
    /// white against black (L 100 and 0, a and b 0: exactly 100).
    @Test func theDifferenceIsCIEDE2000() {
        #expect(abs(Self.deltaE2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) - 2.0425) < 1e-4)
        #expect(abs(Self.deltaE2000((50, 2.5, 0), (73, 25, -18)) - 27.1492) < 1e-4)
        #expect(abs(Self.difference(0xFFFFFF, 0x000000) - 100) < 1e-3)
        #expect(Self.difference(0x4477AA, 0x4477AA) == 0)
        // the simulation keeps greys grey: a grey looks the same to everyone
        for v in Vision.allCases { #expect(Self.difference(0x777777, 0x777777, v) == 0) }
        #expect(Self.difference(0xCC3311, 0x228833, .deuteranopia) < Self.difference(0xCC3311, 0x228833) / 2,
                "red and green close up for a deuteranope")
    }

    static let stages = BudgetStage.allCases
    /// The bars: each platform's stages, iOS with a mid-frame read, and a
    /// front-buffered app's draws.
    static let platforms: [[BudgetStage]] = [
        BudgetStage.stages(of: .ios), BudgetStage.stages(of: .android, panel: .command),
        BudgetStage.midFrameStages, BudgetStage.frontBufferedStages,
        // a display that changes its rate: its wait inside each bar
        BudgetStage.stages(of: .ios, switching: true), BudgetStage.stages(of: .android, panel: .command, switching: true),
        BudgetStage.midFrameStages.withRateSwitchWait,
    ]

    /// Every stage its own colour from the palette, and every two of them
    /// apart (the budget chart once gave the handler and the UI thread one
    /// orange, prepare and RenderThread one green).
    @Test func everyStageHasAColourOfItsOwn() {
        // 20 of both platforms' pipelines, 1 of a display that changes its rate, 6 of the ink apps
        #expect(Self.stages.count == 27)
        for s in Self.stages { #expect(ChartStyle.palette.contains(ChartStyle.stage(s)), "\(s)") }
        for (i, a) in Self.stages.enumerated() {
            for b in Self.stages[(i + 1)...] {
                let d = Self.difference(ChartStyle.stage(a), ChartStyle.stage(b))
                #expect(d >= 11, "\(a) and \(b): \(d)")
            }
        }
    }

    /// Under each simulated deficiency the stages of one platform's bar
    /// stay apart, and neighbouring stages far apart.
    @Test(arguments: [Vision.protanopia, .deuteranopia, .tritanopia])
    func aPlatformsStagesStayApartForColourBlindReaders(_ vision: Vision) {
        for stages in Self.platforms {
            for (i, a) in stages.enumerated() {
                for (j, b) in stages.enumerated() where j > i {
                    let d = Self.difference(ChartStyle.stage(a), ChartStyle.stage(b), vision)
                    #expect(d >= (j == i + 1 ? 9 : 7), "\(vision): \(a) and \(b): \(d)")
                }
            }
        }
    }

    /// The series colours (the palette's first seven: Okabe and Ito's) and
    /// the first three buffers stay apart under each deficiency (least:
    /// 10.9 and 8.6, tritanopia).
    @Test(arguments: Vision.allCases)
    func seriesAndBuffersStayApart(_ vision: Vision) {
        for (colours, floor) in [(Array(ChartStyle.palette.prefix(7)), 10.0), (Array(ChartStyle.buffers.prefix(3)), 8.0)] {
            for (i, a) in colours.enumerated() {
                for b in colours[(i + 1)...] { #expect(Self.difference(a, b, vision) >= floor, "\(vision) \(a) \(b)") }
            }
        }
        #expect(Set(ChartStyle.palette).count == ChartStyle.palette.count)
    }

    /// No chart names a colour: the modules that draw take every colour
    /// from ChartStyle.
    @Test func noColourIsWrittenOutsideChartStyle() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let literal = try NSRegularExpression(pattern: #"0x[0-9A-Fa-f]{6}\b|#[0-9A-Fa-f]{6}(?:[0-9A-Fa-f]{2})?\b"#)
        var found: [String] = []
        for module in ["Charts", "Report"] {
            let dir = root.appendingPathComponent("Sources/\(module)")
            for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) where name.hasSuffix(".swift") && name != "ChartStyle.swift" {
                let text = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
                for m in literal.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    found.append("\(module)/\(name): \((text as NSString).substring(with: m.range))")
                }
            }
        }
        #expect(found.isEmpty, "\(found)")
    }
}
