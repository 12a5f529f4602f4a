import Glibc

/// A C library loaded at run time (`dlopen`) instead of at start-up: a program that
/// links a library with a large dependency tree (libpq brings libkrb5, libldap, libgnutls
/// and a dozen more) pays the dynamic loader's time for all of it in every command, even
/// those that never call it. Loaded once and never unloaded, so every symbol taken from
/// it stays valid for the life of the process.
public struct SharedLibrary: @unchecked Sendable {
    // @unchecked: the handle is only read after `dlopen` returned it, the library is never
    // closed, and `dlsym` is thread-safe.
    private let handle: UnsafeMutableRawPointer
    /// The name it was loaded under (`libpq.so.5`).
    public let name: String

    /// Why a library or one of its symbols could not be loaded, in the loader's words.
    public struct LoadingError: Error, Sendable, CustomStringConvertible {
        public let library: String
        public let reason: String
        public var description: String { "\(library): \(reason)" }
    }

    /// Loads the first of `names` the loader finds (sonames, most specific first), with
    /// every symbol bound at once so a missing one fails here rather than at a call.
    public static func load(anyOf names: [String]) throws(LoadingError) -> SharedLibrary {
        var reasons: [String] = []
        for name in names {
            if let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) { return SharedLibrary(handle: handle, name: name) }
            reasons.append(dlerror().map { String(cString: $0) } ?? "\(name) not found")
        }
        throw LoadingError(library: names.first ?? "", reason: reasons.joined(separator: "; "))
    }

    /// The address of `symbol`, or an error naming it (an older library without it).
    public func address(of symbol: String) throws(LoadingError) -> UnsafeMutableRawPointer {
        guard let address = dlsym(handle, symbol) else {
            throw LoadingError(library: name, reason: dlerror().map { String(cString: $0) } ?? "no symbol \(symbol)")
        }
        return address
    }

    /// `symbol` as the C function type `type` (a `@convention(c)` type from the library's
    /// header; by default the type its use asks for, the property it is stored in), checked
    /// only by name: the caller names the type the header declares.
    public func function<Function>(_ symbol: String, as type: Function.Type = Function.self) throws(LoadingError)
        -> Function
    {
        unsafeBitCast(try address(of: symbol), to: type)
    }
}
