import Foundation
import LatsimFuzz

/// libFuzzer's entry point: the first byte of `data` chooses the input's
/// kind (modulo the kinds: yaml, set, csv, xml, json, part, durations,
/// outpath, answer, framestats, perfetto, summary), the rest is the
/// input. A finding of the oracle aborts, which libFuzzer reports with the
/// input; a trap or a timeout it finds by itself.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let kinds = FuzzKind.allCases
    let kind = kinds[Int(data[0]) % kinds.count]
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    if case .failure(let v) = FuzzTarget.check(kind, bytes, scratch: scratch) {
        FileHandle.standardError.write(Data("latsim-fuzz: \(kind.rawValue): \(v)\n".utf8))
        abort()
    }
    return 0
}

let scratch: URL = {
    let u = FileManager.default.temporaryDirectory.appendingPathComponent("latsim-fuzz-\(getpid())")
    try? FileManager.default.createDirectory(at: u, withIntermediateDirectories: true)
    return u
}()

/// libFuzzer's driver (in the fuzzer runtime that `-sanitize=fuzzer` links).
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<CInt>,
                     _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                     _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

/// The executable's entry point, under the name the package manager links
/// as `main`: it runs libFuzzer's driver with the command line.
@_cdecl("latsim_fuzz_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments, fuzzOne)
}
