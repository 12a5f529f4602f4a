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

// libnfc 1.8 exports these deliberately (libnfc/Makefile.am lists pn53x_transceive,
// pn53x_read_register and pn53x_write_register among the exported symbols) but installs
// no header for them. The prototypes are libnfc 1.8.0's, from libnfc/chips/pn53x.h. They
// reach a PN53x's commands that libnfc has no API for (RFConfiguration item 0x0A, the
// analog settings). Registers 0x6301-0x633E are cached by libnfc: writes to them through
// pn53x_write_register reach the chip on the next transceive.
int pn53x_transceive(struct nfc_device *pnd, const uint8_t *pbtTx, const size_t szTx, uint8_t *pbtRx,
                     const size_t szRxLen, int timeout);
int pn53x_read_register(struct nfc_device *pnd, uint16_t ui16Reg, uint8_t *ui8Value);
#endif
