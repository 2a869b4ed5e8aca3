// The umbrella header compiles as C++ and links against the core.
#include <tasync/tasync.h>

#include <cstdio>

int main() {
    std::printf("abi %u.%u core %s\n", TASYNC_ABI_MAJOR_OF(tasync_core_abi_version()),
                TASYNC_ABI_MINOR_OF(tasync_core_abi_version()), tasync_core_version_string());
    return tasync_core_abi_version() == TASYNC_ABI_VERSION ? 0 : 1;
}
