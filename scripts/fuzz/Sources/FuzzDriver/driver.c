#include "FuzzDriver.h"

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test)(const uint8_t *data, size_t size));

int fuzz_run_driver(int argc, char **argv, FuzzTestOneInput test) {
    return LLVMFuzzerRunDriver(&argc, &argv, test);
}
