// libsodium from Debian's libsodium-dev (the header) and libsodium23 (the library). Only
// NFCSodium imports this module. It is not linked: NFCSodium loads libsodium.so.23 when a
// command first signs or verifies a catalog, so the commands that never do pay nothing
// for it at start-up. These typedefs are the header's own prototypes as function-pointer
// types, for that loading.
#ifndef NFCBENCH_CSODIUM_SHIM_H
#define NFCBENCH_CSODIUM_SHIM_H
#include <sodium.h>

#define NFCBENCH_SODIUM_FUNCTION(name) typedef __typeof__(name) *nfcbench_##name##_f;
NFCBENCH_SODIUM_FUNCTION(sodium_init)
NFCBENCH_SODIUM_FUNCTION(sodium_memzero)
NFCBENCH_SODIUM_FUNCTION(randombytes_buf)
NFCBENCH_SODIUM_FUNCTION(crypto_sign_keypair)
NFCBENCH_SODIUM_FUNCTION(crypto_sign_detached)
NFCBENCH_SODIUM_FUNCTION(crypto_sign_verify_detached)
NFCBENCH_SODIUM_FUNCTION(crypto_sign_seed_keypair)
NFCBENCH_SODIUM_FUNCTION(crypto_generichash)
NFCBENCH_SODIUM_FUNCTION(crypto_pwhash_scryptsalsa208sha256)
#undef NFCBENCH_SODIUM_FUNCTION
#endif
