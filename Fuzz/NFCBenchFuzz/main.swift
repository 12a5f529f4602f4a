import Foundation
import NFCBench
import NFCLocatorCore
import NFCReaders
import NFCVirtualBench

// libFuzzer entry point for every fuzz target; NFCBENCH_FUZZ_TARGET picks one
// (`bench/fuzz` sets it). Built with -parse-as-library, libFuzzer's own main runs. This
// file has no statements (the parser refuses them in library mode even under #if), so a
// plain build is a binary that does nothing: run the targets with bench/fuzz.

/// The target this process fuzzes.
let fuzzTarget = ProcessInfo.processInfo.environment["NFCBENCH_FUZZ_TARGET"] ?? ""

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    switch fuzzTarget {
    case "pn532-frame": FuzzTargets.pn532Frames(bytes)
    case "atr-ats": FuzzTargets.atrAndATS(bytes)
    case "catalog": FuzzTargets.catalog(bytes)
    case "import-gematik": FuzzTargets.importGematik(bytes)
    case "import-android": FuzzTargets.importAndroid(bytes)
    case "csv-cell": FuzzTargets.csvCell(bytes)
    case "json-text": FuzzTargets.jsonText(bytes)
    default: fatalError("NFCBENCH_FUZZ_TARGET must name a target (bench/fuzz lists them), not '\(fuzzTarget)'")
    }
    return 0
}

#if FUZZING
    // SwiftPM links an executable's entry point as `<Module>_main`; in library mode there
    // is none, so this one hands control to libFuzzer's driver.
    @_silgen_name("LLVMFuzzerRunDriver")
    func LLVMFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt

    @_cdecl("NFCBenchFuzz_main")
    public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
        var count = argc
        var arguments = argv
        return LLVMFuzzerRunDriver(&count, &arguments, fuzzOneInput)
    }
#endif
