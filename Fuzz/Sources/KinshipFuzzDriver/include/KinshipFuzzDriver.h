#ifndef KINSHIP_FUZZ_DRIVER_H
#define KINSHIP_FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// The fuzz executable's `main` (SwiftPM names an executable's entry point after its module):
/// hands control to libFuzzer's driver with the test function the Swift side exports.
int KinshipFuzz_main(int argc, char **argv);

#endif
