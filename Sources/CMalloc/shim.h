// glibc's malloc tuning (malloc.h), which the Swift Glibc module does not import. Only
// NFCSystem imports this module; glibc itself is always linked.
#ifndef NFCBENCH_CMALLOC_SHIM_H
#define NFCBENCH_CMALLOC_SHIM_H
#include <malloc.h>
#endif
