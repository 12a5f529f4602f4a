/*
 * A pcscd reader driver for the tests: Debian's vpcd driver (libifdvpcd), loaded
 * and called through unchanged, except that it answers SCardGetAttrib's
 * SCARD_ATTR_VENDOR_IFD_SERIAL_NO the way the CCID driver does for a USB reader
 * with a serial number: a NUL-terminated string, its length counting the NUL.
 * vpcd itself answers no serial number, so without this no test could see one go
 * through pcscd's real SCardGetAttrib path.
 *
 * The serial is "VPCD-" and the vpcd port from the reader.conf DEVICENAME
 * ("/dev/null:35963" gives "VPCD-35963"): one per driver instance, shared by its
 * two slots, as a two-slot USB reader has one serial number.
 *
 * It also answers SCARD_ATTR_CHANNEL_ID as libccid does for a USB reader,
 * 0x0020 << 16 | bus << 8 | device address, with the port's high byte as the bus
 * and its low byte as the address (35963 = 0x8C7B: bus 140, address 123), so a
 * test can lay out a sysfs tree (NFCBENCH_SYSFS_ROOT) with that USB device in it.
 *
 * Built by scripts/lib/services.sh with the path of the vpcd copy to load
 * (-DNFCBENCH_VPCD_PATH="..."). Written for nfcbench; MIT like the rest of it.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ifdhandler.h>
#include <reader.h>

#ifndef NFCBENCH_VPCD_PATH
#error "build with -DNFCBENCH_VPCD_PATH=\"/path/to/libifdvpcd.so\""
#endif

static void *vpcd;
static char serial[64];
static unsigned long port_number;
static pthread_once_t loaded = PTHREAD_ONCE_INIT;

static void load_vpcd(void) {
    vpcd = dlopen(NFCBENCH_VPCD_PATH, RTLD_NOW | RTLD_LOCAL);
    if (!vpcd) fprintf(stderr, "vpcd_serial: %s\n", dlerror());
}

/* The vpcd function of this name, or NULL (the caller answers IFD_COMMUNICATION_ERROR). */
static void *vpcd_function(const char *name) {
    pthread_once(&loaded, load_vpcd);
    return vpcd ? dlsym(vpcd, name) : NULL;
}

/* Calls vpcd's own function of the same name, whose prototype ifdhandler.h declares. */
#define FORWARD(name, ...)                                                     \
    do {                                                                       \
        __typeof__(&name) forwarded = (__typeof__(&name))vpcd_function(#name); \
        return forwarded ? forwarded(__VA_ARGS__) : IFD_COMMUNICATION_ERROR;   \
    } while (0)

RESPONSECODE IFDHCreateChannelByName(DWORD Lun, LPSTR DeviceName) {
    const char *port = DeviceName ? strrchr(DeviceName, ':') : NULL;
    snprintf(serial, sizeof serial, "VPCD-%s", port ? port + 1 : "0");
    port_number = port ? strtoul(port + 1, NULL, 10) & 0xFFFF : 0;
    FORWARD(IFDHCreateChannelByName, Lun, DeviceName);
}

RESPONSECODE IFDHCreateChannel(DWORD Lun, DWORD Channel) {
    snprintf(serial, sizeof serial, "VPCD-%lu", (unsigned long)Channel);
    port_number = (unsigned long)Channel & 0xFFFF;
    FORWARD(IFDHCreateChannel, Lun, Channel);
}

RESPONSECODE IFDHCloseChannel(DWORD Lun) {
    FORWARD(IFDHCloseChannel, Lun);
}

RESPONSECODE IFDHGetCapabilities(DWORD Lun, DWORD Tag, PDWORD Length, PUCHAR Value) {
    if (Tag == SCARD_ATTR_VENDOR_IFD_SERIAL_NO) {
        size_t needed = strlen(serial) + 1;
        if (needed == 1) { *Length = 0; return IFD_SUCCESS; }
        if (*Length < needed) return IFD_ERROR_INSUFFICIENT_BUFFER;
        memcpy(Value, serial, needed);
        *Length = (DWORD)needed;
        return IFD_SUCCESS;
    }
    if (Tag == SCARD_ATTR_CHANNEL_ID) {
        /* Four bytes in the host's order, as libccid writes a uint32_t there. */
        uint32_t channel = (uint32_t)(0x0020UL << 16 | port_number);
        if (*Length < sizeof channel) return IFD_ERROR_INSUFFICIENT_BUFFER;
        memcpy(Value, &channel, sizeof channel);
        *Length = sizeof channel;
        return IFD_SUCCESS;
    }
    FORWARD(IFDHGetCapabilities, Lun, Tag, Length, Value);
}

RESPONSECODE IFDHSetCapabilities(DWORD Lun, DWORD Tag, DWORD Length, PUCHAR Value) {
    FORWARD(IFDHSetCapabilities, Lun, Tag, Length, Value);
}

RESPONSECODE IFDHSetProtocolParameters(DWORD Lun, DWORD Protocol, UCHAR Flags, UCHAR PTS1, UCHAR PTS2, UCHAR PTS3) {
    FORWARD(IFDHSetProtocolParameters, Lun, Protocol, Flags, PTS1, PTS2, PTS3);
}

RESPONSECODE IFDHPowerICC(DWORD Lun, DWORD Action, PUCHAR Atr, PDWORD AtrLength) {
    FORWARD(IFDHPowerICC, Lun, Action, Atr, AtrLength);
}

RESPONSECODE IFDHTransmitToICC(DWORD Lun, SCARD_IO_HEADER SendPci, PUCHAR TxBuffer, DWORD TxLength,
                               PUCHAR RxBuffer, PDWORD RxLength, PSCARD_IO_HEADER RecvPci) {
    FORWARD(IFDHTransmitToICC, Lun, SendPci, TxBuffer, TxLength, RxBuffer, RxLength, RecvPci);
}

RESPONSECODE IFDHControl(DWORD Lun, DWORD dwControlCode, PUCHAR TxBuffer, DWORD TxLength, PUCHAR RxBuffer,
                         DWORD RxLength, LPDWORD pdwBytesReturned) {
    FORWARD(IFDHControl, Lun, dwControlCode, TxBuffer, TxLength, RxBuffer, RxLength, pdwBytesReturned);
}

RESPONSECODE IFDHICCPresence(DWORD Lun) {
    FORWARD(IFDHICCPresence, Lun);
}
