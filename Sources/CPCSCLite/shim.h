// pcsc-lite. pkg-config supplies -I/usr/include/PCSC because winscard.h includes
// pcsclite.h without its folder. Only NFCReaderPCSC imports this module.
#ifndef NFCBENCH_CPCSCLITE_SHIM_H
#define NFCBENCH_CPCSCLITE_SHIM_H
#include <winscard.h>
#include <reader.h>

// SCARD_PCI_T0/T1 are macros taking the address of a global; Swift cannot import them.
static inline const SCARD_IO_REQUEST *nfcbench_pci_t0(void) { return SCARD_PCI_T0; }
static inline const SCARD_IO_REQUEST *nfcbench_pci_t1(void) { return SCARD_PCI_T1; }

// SCARD_CTL_CODE is a function-like macro. 3500 is the CCID escape code that ACS
// documents for ACR122U pseudo-APDUs sent with SCardControl.
static inline DWORD nfcbench_ccid_escape_code(void) { return SCARD_CTL_CODE(3500); }

// SCARD_ATTR_VALUE is a function-like macro: the attribute a reader driver answers with
// its serial number (the CCID driver gives the USB iSerialNumber string).
static inline DWORD nfcbench_attr_vendor_ifd_serial_no(void) { return SCARD_ATTR_VENDOR_IFD_SERIAL_NO; }

// The attribute a reader driver answers with its channel: 0xDDDDCCCC, DDDD the channel's
// type (0x0020 for USB), CCCC its number (libccid: the USB bus << 8 | the device address).
static inline DWORD nfcbench_attr_channel_id(void) { return SCARD_ATTR_CHANNEL_ID; }

// The PnP notification pseudo-reader's name, for reader arrival and departure.
static inline const char *nfcbench_pnp_reader_name(void) { return "\\\\?PnP?\\Notification"; }

// Status codes are #defines of unsigned casts; expose them as typed constants.
static inline LONG nfcbench_scard_s_success(void) { return (LONG)SCARD_S_SUCCESS; }
#endif
