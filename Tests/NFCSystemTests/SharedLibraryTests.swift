import Glibc
import NFCSystem
import Testing

/// Libraries loaded when first used: a real one gives callable functions, a missing one
/// or a missing symbol an error that names it.
@Suite("Shared libraries loaded at run time")
struct SharedLibraryTests {
    @Test func aLoadedFunctionIsTheLibrarysOwn() throws {
        let libc = try SharedLibrary.load(anyOf: ["libc.so.6"])
        typealias Length = @convention(c) (UnsafePointer<CChar>?) -> Int
        let length = try libc.function("strlen", as: Length.self)
        #expect(length("nfcbench") == 8)
    }

    @Test func aMissingLibraryNamesEveryNameTried() {
        #expect {
            try SharedLibrary.load(anyOf: ["libnfcbench-absent.so.9", "libnfcbench-absent.so"])
        } throws: { error in
            let text = "\(error)"
            return text.contains("libnfcbench-absent.so.9") && text.contains("libnfcbench-absent.so:")
        }
    }

    @Test func aMissingSymbolIsNamed() throws {
        let libc = try SharedLibrary.load(anyOf: ["libc.so.6"])
        #expect {
            try libc.address(of: "nfcbench_no_such_symbol")
        } throws: { error in "\(error)".contains("nfcbench_no_such_symbol") }
    }
}
