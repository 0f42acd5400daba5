#include "KinshipFuzzDriver.h"

/* libFuzzer's driver, for programs with a main of their own (LLVM 11 and later). */
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test_one_input)(const uint8_t *data, size_t size));

/* Defined in Swift (Entry.swift). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int KinshipFuzz_main(int argc, char **argv) {
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}
