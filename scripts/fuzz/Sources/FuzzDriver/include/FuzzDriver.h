#include <stddef.h>
#include <stdint.h>

/// What libFuzzer calls with each input; returns 0.
typedef int (*FuzzTestOneInput)(const uint8_t *data, size_t size);

/// Runs libFuzzer's driver with the process's arguments (corpus folders, -max_total_time, …).
int fuzz_run_driver(int argc, char **argv, FuzzTestOneInput test);
