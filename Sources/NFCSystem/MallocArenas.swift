import CMalloc

/// How many heaps glibc's malloc keeps. By default each thread that allocates while
/// another holds the heap gets an arena of its own, up to eight per core, and an arena's
/// high-water mark stays in the peak. nfcbench's threads mostly wait on a reader, a file
/// or SQLite, so they gain nothing from arenas of their own, and the extra arenas made
/// peak memory a matter of timing: `export --output`, whose integrity check runs on a
/// second thread, peaked 4–10 MiB higher on a million taps than on a quarter of them from
/// run to run, against 2 MiB with one arena, at the same speed (docs/performance.md).
public enum MallocArenas {
    /// One arena for the whole process. Call it first thing in `main`, before any thread
    /// exists: arenas already created stay.
    public static func useOne() {
        _ = mallopt(M_ARENA_MAX, 1)
    }
}
