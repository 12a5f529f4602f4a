// SQLite 3 from Debian's libsqlite3-dev (the header) and libsqlite3-0 (the library). Only
// NFCStore imports this module. It is not linked: NFCStore loads libsqlite3.so.0 when a
// command first opens a database, so the commands that never do (`poll`, `resolve`,
// `--version`) do not pay the dynamic loader for it at start-up. These typedefs are the
// header's own prototypes as function-pointer types, for that loading.
#ifndef NFCBENCH_CSQLITE_SHIM_H
#define NFCBENCH_CSQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer; Swift cannot import it.
// It tells SQLite to copy bound text/blobs before the call returns.
static inline sqlite3_destructor_type nfcbench_sqlite_transient(void) { return SQLITE_TRANSIENT; }

#define NFCBENCH_SQLITE_FUNCTION(name) typedef __typeof__(name) *nfcbench_##name##_f;
NFCBENCH_SQLITE_FUNCTION(sqlite3_open_v2)
NFCBENCH_SQLITE_FUNCTION(sqlite3_close_v2)
NFCBENCH_SQLITE_FUNCTION(sqlite3_busy_timeout)
NFCBENCH_SQLITE_FUNCTION(sqlite3_exec)
NFCBENCH_SQLITE_FUNCTION(sqlite3_free)
NFCBENCH_SQLITE_FUNCTION(sqlite3_errmsg)
NFCBENCH_SQLITE_FUNCTION(sqlite3_errstr)
NFCBENCH_SQLITE_FUNCTION(sqlite3_errcode)
NFCBENCH_SQLITE_FUNCTION(sqlite3_extended_errcode)
NFCBENCH_SQLITE_FUNCTION(sqlite3_prepare_v2)
NFCBENCH_SQLITE_FUNCTION(sqlite3_finalize)
NFCBENCH_SQLITE_FUNCTION(sqlite3_reset)
NFCBENCH_SQLITE_FUNCTION(sqlite3_clear_bindings)
NFCBENCH_SQLITE_FUNCTION(sqlite3_bind_null)
NFCBENCH_SQLITE_FUNCTION(sqlite3_bind_int64)
NFCBENCH_SQLITE_FUNCTION(sqlite3_bind_double)
NFCBENCH_SQLITE_FUNCTION(sqlite3_bind_text)
NFCBENCH_SQLITE_FUNCTION(sqlite3_bind_blob)
NFCBENCH_SQLITE_FUNCTION(sqlite3_step)
NFCBENCH_SQLITE_FUNCTION(sqlite3_column_type)
NFCBENCH_SQLITE_FUNCTION(sqlite3_column_int64)
NFCBENCH_SQLITE_FUNCTION(sqlite3_column_double)
NFCBENCH_SQLITE_FUNCTION(sqlite3_column_text)
NFCBENCH_SQLITE_FUNCTION(sqlite3_column_blob)
NFCBENCH_SQLITE_FUNCTION(sqlite3_column_bytes)
NFCBENCH_SQLITE_FUNCTION(sqlite3_backup_init)
NFCBENCH_SQLITE_FUNCTION(sqlite3_backup_step)
NFCBENCH_SQLITE_FUNCTION(sqlite3_backup_finish)
#undef NFCBENCH_SQLITE_FUNCTION
#endif
