// SQLite 3 from Debian's libsqlite3-dev. Only NFCStore imports this module.
#ifndef NFCBENCH_CSQLITE_SHIM_H
#define NFCBENCH_CSQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer; Swift cannot import it.
// It tells SQLite to copy bound text/blobs before the call returns.
static inline sqlite3_destructor_type nfcbench_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
