import Foundation
import Testing

/// The SimPy peers in Tests/Oracles/peers are copies, byte for byte, of the
/// peers published beside the project (Tests/Oracles/README.md): a copy
/// edited to agree with latsim would make the peer-agreement suites
/// meaningless. Where the published peers sit beside the clone
/// (`../shared/peers`, as in CI), every copy must equal its original.
@Suite struct OracleCopyTests {
    static let copies = Peer.folder
    static let published = Peer.folder.deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/peers")
    static let files = ["simpy_pipeline.py", "simpy_android.py", "README.md"]

    @Test func theRepositoryCarriesBothPeersAndTheirDocumentation() throws {
        for f in Self.files {
            let data = try Data(contentsOf: Self.copies.appendingPathComponent(f))
            #expect(data.count > 10_000, "\(f) is \(data.count) bytes")
        }
    }

    @Test func everyCopyEqualsThePublishedPeerWherePresent() throws {
        for f in Self.files {
            let original = Self.published.appendingPathComponent(f)
            guard FileManager.default.fileExists(atPath: original.path) else { continue }
            let copy = try Data(contentsOf: Self.copies.appendingPathComponent(f))
            #expect(copy == (try Data(contentsOf: original)),
                    "Tests/Oracles/peers/\(f) differs from \(original.path): the copies are never edited (Tests/Oracles/README.md)")
        }
    }
}
