// libnfc, as Debian's libnfc-dev installs it. Only NFCReaderLibNFC imports this module.
#ifndef NFCBENCH_CLIBNFC_SHIM_H
#define NFCBENCH_CLIBNFC_SHIM_H
#include <nfc/nfc.h>
#include <nfc/nfc-types.h>

// nfc_connstring is a fixed char array; Swift imports it as a tuple. These keep the
// pointer arithmetic on the C side.
static inline const char *nfcbench_connstring_at(const nfc_connstring *list, size_t index) {
    return list[index];
}

static inline size_t nfcbench_connstring_size(void) { return sizeof(nfc_connstring); }
#endif
