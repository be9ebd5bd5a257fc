import Foundation
import SimKernel
import TouchModel

extension GateOutcome {
    /// The outcome as JUnit XML (the Ant JUnit schema every CI reads): a
    /// `testsuites` root with one `testsuite` per corpus item and one
    /// `testcase` per item x predictor x horizon, named `PREDICTOR @ H ms`
    /// with the item as its class name. A regression is a `failure` whose
    /// message lists the metrics that got worse and whose text is the
    /// entry's metric table; a run that scored nothing is `skipped`.
    ///
    /// `timestamp` (UTC, no zone, as the schema wants) and `hostname` are
    /// the suite's required attributes; the times are the pass's wall time
    /// shared out over its runs.
    public func junitXML(timestamp: Date = Date(), hostname: String = ProcessInfo.processInfo.hostName) -> String {
        let cases = testCases()
        var items: [String] = []
        for c in cases where !items.contains(c.item) { items.append(c.item) }
        let perCase = cases.isEmpty ? 0 : seconds / Double(cases.count)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        let stamp = formatter.string(from: timestamp)
        let host = hostname.trimmingCharacters(in: .whitespaces).isEmpty ? "localhost" : hostname
        func time(_ s: Double) -> String { formatDecimal(s, places: 3, fixed: true) }

        var suites: [String] = []
        for (index, item) in items.enumerated() {
            var body: [String] = []
            var failures = 0, skipped = 0, count = 0
            for c in cases where c.item == item {
                count += 1
                let name = "\(c.predictor) @ \(formatDecimal(c.horizonMs, places: 3)) ms"
                let open = "    <testcase name=\"\(Self.xml(name))\" classname=\"\(Self.xml(item))\" time=\"\(time(perCase))\""
                let summary = regressionSummary(item: c.item, predictor: c.predictor, horizonMs: c.horizonMs)
                if let reason = unusableReason(item: c.item, predictor: c.predictor, horizonMs: c.horizonMs) {
                    failures += 1
                    body.append(open + ">")
                    body.append("      <failure type=\"UnusablePrediction\" message=\"\(Self.xml("unusable figures: " + reason))\">"
                                + Self.xml("The predictor's answers make these figures not finite or absurd (beyond \(Int(PredictionMetric.sensibleLimit)) points): \(reason)")
                                + "</failure>")
                    body.append("    </testcase>")
                } else if !summary.isEmpty {
                    failures += 1
                    let table = metricTable(item: c.item, predictor: c.predictor, horizonMs: c.horizonMs)
                    body.append(open + ">")
                    body.append("      <failure type=\"PredictionRegression\" message=\"\(Self.xml("regression: " + summary))\">"
                                + Self.xml(table + "\n\ntolerance \(formatDecimal(tolerancePercent, places: 3))% of the baseline value (at least 0.01 points)")
                                + "</failure>")
                    body.append("    </testcase>")
                } else if !c.scored {
                    skipped += 1
                    body.append(open + ">")
                    body.append("      <skipped/>")
                    body.append("    </testcase>")
                } else {
                    body.append(open + "/>")
                }
            }
            suites.append("  <testsuite name=\"\(Self.xml(item))\" package=\"latsim.prediction\" id=\"\(index)\" timestamp=\"\(stamp)\" "
                          + "hostname=\"\(Self.xml(host))\" tests=\"\(count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\" "
                          + "time=\"\(time(perCase * Double(count)))\">")
            suites.append("    <properties>")
            suites.append("      <property name=\"baseline\" value=\"\(Self.xml(baselineFile))\"/>")
            suites.append("      <property name=\"tolerancePercent\" value=\"\(formatDecimal(tolerancePercent, places: 3))\"/>")
            suites.append("    </properties>")
            suites += body
            suites.append("    <system-out></system-out>")
            suites.append("    <system-err></system-err>")
            suites.append("  </testsuite>")
        }
        // the schema's root has no attributes: the totals are the suites' sums
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n" + suites.joined(separator: "\n")
            + (suites.isEmpty ? "" : "\n") + "</testsuites>\n"
    }

    /// Text for XML content and attributes: `& < > " '` escaped, and
    /// characters XML 1.0 cannot hold dropped.
    static func xml(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\t": out += "&#9;"
            case _ where u.value < 0x20 || u.value == 0xFFFE || u.value == 0xFFFF: continue
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }

    /// GitHub Actions workflow commands: one `::error` per regressed entry
    /// (title: the entry; message: what got worse, then its metric table),
    /// a `::warning` for runs that scored nothing, and a closing `::notice`
    /// with the verdict.
    public func githubAnnotations() -> [String] {
        var out: [String] = []
        for c in testCases() {
            if let reason = unusableReason(item: c.item, predictor: c.predictor, horizonMs: c.horizonMs) {
                let title = "unusable prediction: \(c.item) \(c.predictor) @ \(formatDecimal(c.horizonMs, places: 3)) ms"
                out.append("::error title=\(Self.githubProperty(title))::\(Self.githubData("the predictor's answers make figures not finite or absurd: " + reason))")
                continue
            }
            let summary = regressionSummary(item: c.item, predictor: c.predictor, horizonMs: c.horizonMs)
            guard !summary.isEmpty else { continue }
            let title = "prediction regression: \(c.item) \(c.predictor) @ \(formatDecimal(c.horizonMs, places: 3)) ms"
            let table = metricTable(item: c.item, predictor: c.predictor, horizonMs: c.horizonMs)
            out.append("::error title=\(Self.githubProperty(title))::\(Self.githubData(summary + "\n" + table))")
        }
        let empty = emptyRuns
        if !empty.isEmpty {
            out.append("::warning title=\(Self.githubProperty("prediction gate"))::\(Self.githubData("\(empty.count) runs scored nothing and are not recorded"))")
        }
        let verdict = !unusableRuns.isEmpty ? "\(unusableRuns.count) runs with unusable figures: the gate fails"
            : recorded ? "wrote \(current.entries.count) entries to \(baselineFile)"
            : passed ? "\(compared) entries compared with \(baselineFile): no regression"
            : "\(regressions.count) regressions in \(compared) entries compared with \(baselineFile)"
        out.append("::notice title=\(Self.githubProperty("prediction gate"))::\(Self.githubData(verdict))")
        return out
    }

    /// An error as a GitHub annotation.
    public static func githubAnnotation(_ error: LatsimError) -> String {
        "::error title=\(githubProperty("latsim regress"))::\(githubData(error.description))"
    }

    /// A workflow command's message: `%`, CR and LF escaped.
    static func githubData(_ s: String) -> String {
        s.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A workflow command's property: also `:` and `,`.
    static func githubProperty(_ s: String) -> String {
        githubData(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
