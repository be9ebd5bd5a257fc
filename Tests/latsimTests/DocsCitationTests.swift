import Foundation
import Testing

/// The documentation stands on its own: a clone with nothing beside it can
/// follow every citation and every link. Pages, the generated report, the
/// device presets' sources and the strings latsim prints cite the talks,
/// AOSP, WALT, papers and the project's own Docs, never a file outside the
/// repository (a `../` path, a contract or reference file kept elsewhere);
/// every relative link, and every `Docs/NAME.md` a text names, resolves
/// inside the repository.
@Suite struct DocsCitationTests {
    static let root = Latsim.packageRoot.standardizedFileURL

    /// Spellings of files outside the repository: the folder CI keeps beside
    /// the clone, and the contract and reference files it holds.
    static let outside = ["../shared", "/work/", "MODEL.md", "ANDROID.md", "ARCHITECTURE.md", "references/"]

    /// The outside names a text holds, with their line numbers.
    static func outsideCitations(in text: String) -> [String] {
        text.components(separatedBy: "\n").enumerated().compactMap { n, line in
            let hits = outside.filter { line.contains($0) }
            return hits.isEmpty ? nil : "line \(n + 1): \(hits.joined(separator: ", ")): \(line.prefix(160))"
        }
    }

    /// Files under `folder` (relative to the root) whose names end in one of `extensions`.
    static func files(under folder: String, extensions: [String]) -> [String] {
        guard let walk = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path) else { return [] }
        return walk.compactMap { $0 as? String }
            .filter { name in extensions.contains { name.hasSuffix($0) } }
            .map { folder + "/" + $0 }
            .sorted()
    }

    /// The user's pages: the README, the changelog, Docs/, the generated
    /// report, the examples' pages.
    static var pages: [String] {
        ["README.md", "CHANGELOG.md", "Reports/README.md", "Protos/README.md"]
            + files(under: "Docs", extensions: [".md"]) + files(under: "Examples", extensions: [".md"])
    }

    /// What latsim ships and prints from: its sources, built-in scenarios,
    /// device presets and measurement table.
    static var sources: [String] { files(under: "Sources", extensions: [".swift", ".yaml"]) }

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func pagesAndSourcesCiteNoFileOutsideTheRepository() throws {
        #expect(Self.pages.count > 15 && Self.sources.count > 100, "\(Self.pages.count) pages, \(Self.sources.count) sources")
        for path in Self.pages + Self.sources {
            let hits = Self.outsideCitations(in: try Self.text(path))
            #expect(hits.isEmpty, "\(path) names a file outside the repository:\n\(hits.joined(separator: "\n"))")
        }
    }

    /// The check itself finds what it looks for.
    @Test func theCheckFindsAnOutsideCitation() {
        #expect(Self.outsideCitations(in: "fine\nsee ../shared/docs/x.md\n(references/measurements.md)").count == 2)
        #expect(Self.outsideCitations(in: "as MODEL.md says").count == 1)
        #expect(Self.outsideCitations(in: "Docs/Model.md and Docs/Android.md").isEmpty)
    }

    /// What latsim prints of its sources: validate's table and help, every
    /// preset's values with their sources, the built-in scenarios' files.
    @Test func printedCitationsNameNoFileOutsideTheRepository() throws {
        var outputs: [(String, String)] = []
        for args in [["validate"], ["validate", "--help"], ["devices"]] {
            let o = try Latsim.run(args)
            outputs.append((args.joined(separator: " "), o.stdout + o.stderr))
        }
        let presets = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources/Scenarios/Devices").path)
            .filter { $0.hasSuffix(".yaml") && $0 != "classes.yaml" && $0 != "measurements.yaml" }
            .map { String($0.dropLast(5)) }
        #expect(presets.count >= 14)
        for name in presets {
            let o = try Latsim.run(["devices", "--show", name])
            #expect(o.status == 0, "devices --show \(name): exit \(o.status)\n\(o.stderr)")
            outputs.append(("devices --show \(name)", o.stdout + o.stderr))
        }
        let list = try Latsim.run(["list"])
        let scenarios = list.stdout.components(separatedBy: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
            .filter { !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." } }
        #expect(scenarios.contains("android-gs101-120hz"), "latsim list: \(list.stdout.prefix(400))")
        for name in scenarios {
            let o = try Latsim.run(["scenario", "show", name])
            outputs.append(("scenario show \(name)", o.stdout + o.stderr))
        }
        for (command, output) in outputs {
            let hits = Self.outsideCitations(in: output)
            #expect(hits.isEmpty, "latsim \(command) names a file outside the repository:\n\(hits.joined(separator: "\n"))")
        }
    }

    /// A heading's anchor as GitHub makes it: lower case, punctuation
    /// dropped, spaces as hyphens.
    static func anchor(_ heading: String) -> String {
        String(heading.lowercased().compactMap { ch -> Character? in
            if ch == " " { return "-" }
            return ch.isLetter || ch.isNumber || ch == "-" || ch == "_" ? ch : nil
        })
    }

    /// The anchors of a Markdown page's headings.
    static func anchors(of text: String) -> Set<String> {
        var inBlock = false
        var out: Set<String> = []
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("```") { inBlock.toggle(); continue }
            guard !inBlock, line.hasPrefix("#") else { continue }
            out.insert(anchor(line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)))
        }
        return out
    }

    /// The targets of a page's Markdown links and images, outside code.
    static func linkTargets(in text: String) -> [String] {
        var inBlock = false
        var out: [String] = []
        let link = try! NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("```") { inBlock.toggle(); continue }
            guard !inBlock else { continue }
            // inline code is not a link
            let prose = line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 0 }.map { String($0.element) }.joined(separator: " ")
            let ns = prose as NSString
            for m in link.matches(in: prose, range: NSRange(location: 0, length: ns.length)) {
                out.append(ns.substring(with: m.range(at: 1)))
            }
        }
        return out
    }

    /// What is wrong with a link from `page`, or nil when it resolves inside
    /// the repository (a heading's anchor included).
    static func problem(link target: String, from page: String) throws -> String? {
        if target.contains("://") || target.hasPrefix("mailto:") { return nil }
        let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let path = parts[0], fragment = parts.count > 1 ? parts[1] : nil
        let base = root.appendingPathComponent(page).deletingLastPathComponent()
        let url = path.isEmpty ? root.appendingPathComponent(page) : base.appendingPathComponent(path).standardizedFileURL
        guard url.path == root.path || url.path.hasPrefix(root.path + "/") else { return "\(target): outside the repository" }
        guard FileManager.default.fileExists(atPath: url.path) else { return "\(target): no such file" }
        if let fragment, url.pathExtension == "md" {
            let text = try String(contentsOf: url, encoding: .utf8)
            guard anchors(of: text).contains(fragment) else { return "\(target): no heading makes #\(fragment)" }
        }
        return nil
    }

    @Test func everyRelativeLinkResolvesInsideTheRepository() throws {
        var links = 0
        for page in Self.pages + Self.files(under: "Tests", extensions: [".md"]) {
            for target in Self.linkTargets(in: try Self.text(page)) {
                links += 1
                let p = try Self.problem(link: target, from: page)
                #expect(p == nil, "\(page): \(p ?? "")")
            }
        }
        #expect(links >= 40, "\(links) links found")
    }

    /// The link check itself: a missing file, a path out of the repository
    /// and a missing heading are found; a web address and a good link pass.
    @Test func theLinkCheckFindsBrokenLinks() throws {
        #expect(Self.linkTargets(in: "a [b](Docs/Guide.md) `[c](x)` ![d](Reports/budget.png)\n```\n[e](f)\n```") == ["Docs/Guide.md", "Reports/budget.png"])
        #expect(try Self.problem(link: "Docs/Guide.md", from: "README.md") == nil)
        #expect(try Self.problem(link: "Guide.md#the-talks-table", from: "Docs/Commands.md") == nil)
        #expect(try Self.problem(link: "https://ui.perfetto.dev", from: "README.md") == nil)
        #expect(try Self.problem(link: "Docs/Nothing.md", from: "README.md") != nil)
        #expect(try Self.problem(link: "../shared/docs/MODEL.md", from: "README.md") != nil)
        #expect(try Self.problem(link: "Guide.md#no-such-heading", from: "Docs/Commands.md") != nil)
        #expect(Self.anchor("Traces: Perfetto in and out") == "traces-perfetto-in-and-out")
        #expect(Self.anchor("The talk's table") == "the-talks-table")
    }

    /// A page or a printed string that names `Docs/NAME.md` names a page
    /// that exists.
    @Test func everyNamedDocsPageExists() throws {
        let named = try NSRegularExpression(pattern: #"Docs/([A-Za-z]+)\.md"#)
        var names = 0
        // (this file names made-up pages on purpose)
        for path in Self.pages + Self.sources + Self.files(under: "Tests", extensions: [".md", ".swift"])
        where !path.hasSuffix("/DocsCitationTests.swift") {
            let text = try Self.text(path)
            let ns = text as NSString
            for m in named.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
                names += 1
                let page = "Docs/" + ns.substring(with: m.range(at: 1)) + ".md"
                #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(page).path), "\(path) names \(page), which does not exist")
            }
        }
        #expect(names >= 50, "\(names) names found")
    }
}
