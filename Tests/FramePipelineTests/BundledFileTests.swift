import Foundation
@testable import Scenarios
import Testing

/// The built-in files are read from the resource folder beside the binary
/// when it is there, else through the resource bundle: the same bytes.
@Suite struct BundledFileTests {
    @Test func theFolderBesideTheBinaryHoldsWhatTheBundleHolds() throws {
        // SwiftPM builds the resource folder beside the test binary too
        let folder = try #require(BundledFile.besideExecutable, "no resource folder beside the test binary")
        #expect(folder.hasSuffix("/latsim_Scenarios.resources"))
        let files = BuiltinScenarios.names.map { ("Builtin", $0) } + DevicePreset.builtinNames.map { ("Devices", $0) }
        for (subdirectory, name) in files {
            let url = try #require(Bundle.module.url(forResource: name, withExtension: "yaml", subdirectory: subdirectory))
            let throughBundle = String(data: try Data(contentsOf: url), encoding: .utf8)
            let direct = BundledFile.yaml(name, in: subdirectory)
            #expect(direct != nil && direct == throughBundle, "\(subdirectory)/\(name)")
        }
        #expect(BundledFile.yaml("no-such-file", in: "Builtin") == nil)
    }
}
