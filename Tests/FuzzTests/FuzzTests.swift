import Foundation
import LatsimFuzz
import Testing

/// The fuzz target run from `swift test`: every input of the committed
/// corpus (each input that once crashed, hung or was wrongly accepted, and
/// a few good ones), then seeded mutations of them for a bounded time
/// (`LATSIM_FUZZ_SECONDS`, default 4 s). The oracle (`FuzzTarget`): accepted
/// with finite numbers, or refused as bad input in under 1,000 characters;
/// a trap would end the test process.
@Suite struct FuzzTests {
    static let corpus: [(name: String, kind: FuzzKind, bytes: [UInt8])] = {
        guard let dir = Bundle.module.url(forResource: "Corpus", withExtension: nil),
              let names = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else { return [] }
        return names.sorted().compactMap { name in
            guard let kind = FuzzKind(fileExtension: (name as NSString).pathExtension),
                  let data = FileManager.default.contents(atPath: dir.appendingPathComponent(name).path) else { return nil }
            return (name, kind, [UInt8](data))
        }
    }()

    static func scratch() throws -> URL {
        let u = FileManager.default.temporaryDirectory.appendingPathComponent("latsim-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: u, withIntermediateDirectories: true)
        return u
    }

    @Test func everyCorpusInputMeetsTheOracle() throws {
        #expect(Self.corpus.count >= 30)
        let scratch = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        var refused = 0
        for input in Self.corpus {
            switch FuzzTarget.check(input.kind, input.bytes, scratch: scratch) {
            case .success(.refused): refused += 1
            case .success(.accepted): break
            case .failure(let v): Issue.record("\(input.name): \(v)")
            }
        }
        // the inputs that once crashed latsim are all refused now
        #expect(refused >= 22, "\(refused) refused")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty, "no file left behind")
    }

    @Test func theGoodInputsRun() throws {
        let scratch = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        for input in Self.corpus where input.name.hasPrefix("good") || input.name == "crlf.csv" {
            #expect(FuzzTarget.check(input.kind, input.bytes, scratch: scratch) == .success(.accepted), "\(input.name)")
        }
    }

    @Test func mutationsOfTheCorpusMeetTheOracle() throws {
        let seconds = ProcessInfo.processInfo.environment["LATSIM_FUZZ_SECONDS"].flatMap(Double.init) ?? 4
        let seed = ProcessInfo.processInfo.environment["LATSIM_FUZZ_SEED"].flatMap(UInt64.init) ?? 1
        let scratch = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        var m = Mutator(seed: seed)
        let start = Date()
        var tried = 0, refused = 0
        let corpus = Self.corpus
        while Date().timeIntervalSince(start) < seconds {
            let a = corpus[tried % corpus.count], b = corpus[(tried * 7 + 3) % corpus.count]
            let input = m.mutate(a.bytes, other: b.bytes)
            let began = Date()
            switch FuzzTarget.check(a.kind, input, scratch: scratch) {
            case .success(.refused): refused += 1
            case .success(.accepted): break
            case .failure(let v):
                Issue.record("mutation \(tried) of \(a.name): \(v)\ninput: \(String(decoding: input.prefix(400), as: UTF8.self))")
            }
            let took = Date().timeIntervalSince(began)
            #expect(took < 5, "mutation \(tried) of \(a.name) took \(took) s")
            tried += 1
        }
        #expect(tried > 20, "\(tried) inputs tried")
        print("fuzz: \(tried) inputs in \(seconds) s, \(refused) refused, seed \(seed)")
    }
}
