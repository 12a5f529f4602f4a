// libpq, PostgreSQL's C client, from Debian's libpq-dev. Only NFCPostgres imports this module.
#ifndef NFCBENCH_CLIBPQ_SHIM_H
#define NFCBENCH_CLIBPQ_SHIM_H
#include <libpq-fe.h>
#endif
