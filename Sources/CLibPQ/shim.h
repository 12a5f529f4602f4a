// libpq, PostgreSQL's C client, from Debian's libpq-dev (headers) and libpq5 (the
// library). Only NFCPostgres imports this module. It is not linked: NFCPostgres loads
// libpq.so.5 when a command first opens a lab store, so the other commands never pay the
// dynamic loader for libpq's dependency tree (libkrb5, libldap, libgnutls, ...). These
// typedefs are the header's own prototypes as function-pointer types, for that loading.
#ifndef NFCBENCH_CLIBPQ_SHIM_H
#define NFCBENCH_CLIBPQ_SHIM_H
#include <postgresql/libpq-fe.h>

#define NFCBENCH_LIBPQ_FUNCTION(name) typedef __typeof__(name) *nfcbench_##name##_f;
NFCBENCH_LIBPQ_FUNCTION(PQconnectdbParams)
NFCBENCH_LIBPQ_FUNCTION(PQstatus)
NFCBENCH_LIBPQ_FUNCTION(PQerrorMessage)
NFCBENCH_LIBPQ_FUNCTION(PQfinish)
NFCBENCH_LIBPQ_FUNCTION(PQclear)
NFCBENCH_LIBPQ_FUNCTION(PQuser)
NFCBENCH_LIBPQ_FUNCTION(PQhost)
NFCBENCH_LIBPQ_FUNCTION(PQport)
NFCBENCH_LIBPQ_FUNCTION(PQdb)
NFCBENCH_LIBPQ_FUNCTION(PQsocket)
NFCBENCH_LIBPQ_FUNCTION(PQsetNoticeProcessor)
NFCBENCH_LIBPQ_FUNCTION(PQsendQueryParams)
NFCBENCH_LIBPQ_FUNCTION(PQsendQuery)
NFCBENCH_LIBPQ_FUNCTION(PQgetResult)
NFCBENCH_LIBPQ_FUNCTION(PQisBusy)
NFCBENCH_LIBPQ_FUNCTION(PQconsumeInput)
NFCBENCH_LIBPQ_FUNCTION(PQresultStatus)
NFCBENCH_LIBPQ_FUNCTION(PQresultErrorMessage)
NFCBENCH_LIBPQ_FUNCTION(PQresultErrorField)
NFCBENCH_LIBPQ_FUNCTION(PQntuples)
NFCBENCH_LIBPQ_FUNCTION(PQnfields)
NFCBENCH_LIBPQ_FUNCTION(PQfname)
NFCBENCH_LIBPQ_FUNCTION(PQgetvalue)
NFCBENCH_LIBPQ_FUNCTION(PQgetisnull)
NFCBENCH_LIBPQ_FUNCTION(PQcmdTuples)
NFCBENCH_LIBPQ_FUNCTION(PQconninfoParse)
NFCBENCH_LIBPQ_FUNCTION(PQconninfoFree)
NFCBENCH_LIBPQ_FUNCTION(PQfreemem)
#undef NFCBENCH_LIBPQ_FUNCTION
#endif
