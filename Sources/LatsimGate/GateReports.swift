import Foundation
import SimKernel
import TouchModel

extension GateOutcome {
    /// The most `::error` annotations a pass writes besides its summary
    /// (GitHub shows 10 per step).
    public static let annotationLimit = 10

    /// The outcome as JUnit XML (the Ant JUnit schema every CI reads): a
    /// `testsuites` root with one `testsuite` per corpus item and one
    /// `testcase` per item x predictor x horizon run, named `PREDICTOR @ H ms`
    /// with the item as its class name. A regression is a `failure` whose
    /// message lists the metrics that got worse and whose text is the
    /// entry's metric table; unusable figures are a `failure` of type
    /// `UnusablePrediction`; a run that scored nothing is `skipped`.
    /// Baseline entries this pass did not score are not test cases (they
    /// were not run): one `missing` suite holds a single failing case that
    /// lists them.
    ///
    /// `timestamp` (UTC, no zone, as the schema wants) and `hostname` are
    /// the suite's required attributes; the runs share the cores, so each
    /// case's time is the pass's wall time shared out over its runs.
    public func junitXML(timestamp: Date = Date(), hostname: String = ProcessInfo.processInfo.hostName) -> String {
        let cases = testCases()
        var items: [String] = []
        for c in cases where !items.contains(c.id.item) { items.append(c.id.item) }
        let perCase = cases.isEmpty ? 0 : seconds / Double(cases.count)
        let head = Self.suiteHead(timestamp: timestamp, hostname: hostname)
        let properties = junitProperties()

        var suites: [String] = []
        for (index, item) in items.enumerated() {
            var body: [String] = []
            var failures = 0, skipped = 0, count = 0
            for c in cases where c.id.item == item {
                count += 1
                let name = "\(c.id.predictor) @ \(formatDecimal(c.id.horizonMs, places: 3)) ms"
                let open = "    <testcase name=\"\(Self.xml(name))\" classname=\"\(Self.xml(item))\" time=\"\(Self.time(perCase))\""
                let summary = regressionSummary(c.id)
                if let reason = unusableReason(c.id) {
                    failures += 1
                    body.append(open + ">")
                    body.append("      <failure type=\"UnusablePrediction\" message=\"\(Self.xml("unusable figures: " + reason))\">"
                                + Self.xml("The predictor's answers make these figures not finite or absurd (beyond \(Int(PredictionMetric.sensibleLimit)) points): \(reason)")
                                + "</failure>")
                    body.append("    </testcase>")
                } else if !summary.isEmpty {
                    failures += 1
                    body.append(open + ">")
                    body.append("      <failure type=\"PredictionRegression\" message=\"\(Self.xml("regression: " + summary))\">"
                                + Self.xml(metricTable(c.id)) + "</failure>")
                    body.append("    </testcase>")
                } else if !c.scored {
                    skipped += 1
                    body.append(open + ">")
                    body.append("      <skipped message=\"scored nothing: no prediction was made\"/>")
                    body.append("    </testcase>")
                } else {
                    body.append(open + "/>")
                }
            }
            suites.append("  <testsuite name=\"\(Self.xml(item))\" package=\"latsim.prediction\" id=\"\(index)\" \(head) "
                          + "tests=\"\(count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\" "
                          + "time=\"\(Self.time(perCase * Double(count)))\">")
            suites += properties
            suites += body
            suites.append("    <system-out></system-out>")
            suites.append("    <system-err></system-err>")
            suites.append("  </testsuite>")
        }
        let missing = recording ? [] : missingEntries
        if !missing.isEmpty {
            let list = missing.map(\.description).joined(separator: "\n")
            suites.append("  <testsuite name=\"missing\" package=\"latsim.prediction\" id=\"\(items.count)\" \(head) "
                          + "tests=\"1\" failures=\"1\" errors=\"0\" skipped=\"0\" time=\"0.000\">")
            suites += properties
            suites.append("    <testcase name=\"baseline entries missing from this run\" classname=\"missing\" time=\"0.000\">")
            suites.append("      <failure type=\"MissingEntries\" message=\"\(Self.xml(Self.count(missing.count, "baseline entry", "baseline entries") + " not scored by this run (coverage lost)"))\">"
                          + Self.xml(list) + "</failure>")
            suites.append("    </testcase>")
            suites.append("    <system-out></system-out>")
            suites.append("    <system-err></system-err>")
            suites.append("  </testsuite>")
        }
        // the schema's root has no attributes: the totals are the suites' sums
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n" + suites.joined(separator: "\n")
            + (suites.isEmpty ? "" : "\n") + "</testsuites>\n"
    }

    /// JUnit XML for a gate that could not run (bad input, a predictor that
    /// broke the protocol, the environment): one suite, one case, one
    /// `error` naming what went wrong, so that a CI step publishing the
    /// file never shows "no results".
    public static func junitXML(error: LatsimError, baselineFile: String?, timestamp: Date = Date(),
                                hostname: String = ProcessInfo.processInfo.hostName) -> String {
        let type: String
        switch error.kind {
        case .badInput: type = "BadInput"
        case .environment: type = "EnvironmentFailure"
        case .internal: type = "InternalFailure"
        }
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<testsuites>",
                     "  <testsuite name=\"prediction gate\" package=\"latsim.prediction\" id=\"0\" \(suiteHead(timestamp: timestamp, hostname: hostname)) "
                     + "tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0.000\">",
                     "    <properties>"]
        if let baselineFile { lines.append("      <property name=\"baseline\" value=\"\(xml(baselineFile))\"/>") }
        lines += ["    </properties>",
                  "    <testcase name=\"the gate runs\" classname=\"prediction gate\" time=\"0.000\">",
                  "      <error type=\"\(type)\" message=\"\(xml(error.description))\">\(xml(error.description))</error>",
                  "    </testcase>",
                  "    <system-out></system-out>",
                  "    <system-err></system-err>",
                  "  </testsuite>",
                  "</testsuites>"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `properties` of every suite: the baseline, the spec, each gated
    /// metric's tolerance.
    func junitProperties() -> [String] {
        var out = ["    <properties>",
                   "      <property name=\"baseline\" value=\"\(Self.xml(baselineFile))\"/>",
                   "      <property name=\"spec\" value=\"\(Self.xml(specFile ?? "(default)"))\"/>"]
        for r in rules {
            out.append("      <property name=\"tolerance.\(r.metric.rawValue)\" value=\"\(Self.xml("\(r.tolerance)" + (r.fails == .both ? " (any move)" : "")))\"/>")
        }
        for key in settings.keys.sorted() {
            out.append("      <property name=\"setting.\(Self.xml(key))\" value=\"\(Self.xml(settings[key]!))\"/>")
        }
        out.append("    </properties>")
        return out
    }

    /// `timestamp="..." hostname="..."`.
    static func suiteHead(timestamp: Date, hostname: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        let host = hostname.trimmingCharacters(in: .whitespaces).isEmpty ? "localhost" : hostname
        return "timestamp=\"\(formatter.string(from: timestamp))\" hostname=\"\(xml(host))\""
    }

    static func time(_ s: Double) -> String { formatDecimal(s, places: 3, fixed: true) }

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

    /// GitHub Actions workflow commands: an `::error` for each of the first
    /// ``annotationLimit`` failing entries (title: the entry; message: what
    /// got worse, then its metric table), each with `file=` the baseline,
    /// then one summary: an `::error` with the verdict when the gate
    /// failed (saying how many failing entries were not annotated), a
    /// `::notice` when it passed.
    public func githubAnnotations() -> [String] {
        var out: [String] = []
        let file = "file=\(Self.githubProperty(baselineFile)),"
        let failing = failures()
        for f in failing.prefix(Self.annotationLimit) {
            if let reason = f.unusable {
                let title = "unusable prediction: \(f.id)"
                out.append("::error \(file)title=\(Self.githubProperty(title))::"
                           + Self.githubData("the predictor's answers make figures not finite or absurd: " + reason))
            } else {
                let title = "prediction regression: \(f.id)"
                out.append("::error \(file)title=\(Self.githubProperty(title))::\(Self.githubData(f.regression + "\n" + metricTable(f.id)))")
            }
        }
        var summary = verdict
        if failing.count > Self.annotationLimit {
            summary += " (\(Self.count(failing.count - Self.annotationLimit, "more failing entry", "more failing entries")) not annotated: see the report)"
        }
        if !emptyRuns.isEmpty { summary += "; \(Self.count(emptyRuns.count, "run")) scored nothing" }
        out.append((passed ? "::notice " : "::error ") + "\(file)title=\(Self.githubProperty("prediction gate"))::\(Self.githubData(summary))")
        return out
    }

    /// An error as a GitHub annotation, on the file and line it names.
    public static func githubAnnotation(_ error: LatsimError) -> String {
        var place = ""
        if let f = error.file, !f.hasPrefix("--"), FileManager.default.fileExists(atPath: f) {
            place = "file=\(githubProperty(f)),"
            if let l = error.line { place += "line=\(l)," }
        }
        return "::error \(place)title=\(githubProperty("latsim regress"))::\(githubData(error.description))"
    }

    /// A workflow command's message: `%`, CR and LF escaped.
    static func githubData(_ s: String) -> String {
        s.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A workflow command's property: also `:` and `,`.
    static func githubProperty(_ s: String) -> String {
        githubData(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    // MARK: Markdown

    /// The outcome as Markdown, for a CI job's summary
    /// (`$GITHUB_STEP_SUMMARY`): the verdict, the counts in entries, the
    /// setting, then the failing entries' metrics (the first 50 rows) and
    /// the missing entries.
    public var markdownSummary: String {
        var md = ["## Prediction gate: \(passed ? "passed" : "FAILED")", "", verdict, ""]
        if !recording {
            md += ["| entries | count |", "|---|---:|",
                   "| compared with the baseline | \(compared) |",
                   "| regressed (\(Self.count(regressedMetrics.count, "metric"))) | \(regressedEntries.count) |",
                   "| missing from this run | \(missingEntries.count) |",
                   "| unusable figures | \(unusableRuns.count) |",
                   "| new (not in the baseline) | \(newEntries.count) |",
                   "| scored nothing | \(emptyRuns.count) |", ""]
        }
        md += ["Baseline `\(Self.md(baselineFile))`; " + Self.md(settingLine) + ".", ""]
        let rows = regressedMetrics
        if !rows.isEmpty {
            md += ["### Regressions", "", "| item | predictor | horizon ms | metric | baseline | now | change | tolerance |",
                   "|---|---|---:|---|---:|---:|---:|---:|"]
            for c in rows.prefix(50) {
                let pct = c.changePercent.map { ($0 > 0 ? "+" : "") + formatDecimal($0, places: 2) + "%" } ?? "-"
                md.append("| \(Self.md(c.item)) | \(Self.md(c.predictor)) | \(formatDecimal(c.horizonMs, places: 3)) | \(c.metric) | "
                          + "\(formatDecimal(c.old ?? 0, places: 6)) | \(formatDecimal(c.new ?? 0, places: 6)) | \(pct) | \(tolerance(of: c.metric)) |")
            }
            if rows.count > 50 { md += ["", "... \(rows.count - 50) more rows in the job's log."] }
            md.append("")
        }
        let unusable = unusableRuns
        if !unusable.isEmpty {
            md += ["### Unusable figures", ""]
            md += unusable.prefix(20).map { "- \(Self.md(EntryID($0.item, $0.predictor, $0.horizonMs).description)): \(PredictionMetric.unusableReason($0.score) ?? "")" }
            if unusable.count > 20 { md.append("- ... \(unusable.count - 20) more") }
            md.append("")
        }
        let missing = recording ? [] : missingEntries
        if !missing.isEmpty {
            md += ["### Missing from this run", ""]
            md += missing.prefix(20).map { "- \(Self.md($0.description))" }
            if missing.count > 20 { md.append("- ... \(missing.count - 20) more") }
            md.append("")
        }
        return md.joined(separator: "\n")
    }

    /// Markdown for a gate that could not run.
    public static func markdownSummary(error: LatsimError) -> String {
        "## Prediction gate: ERROR\n\nThe gate could not run:\n\n```\n\(error.description)\n```\n"
    }

    /// Text for a Markdown table cell: `|` escaped, lines joined.
    static func md(_ s: String) -> String {
        s.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
