// The runtime of a benchmark program, or a sentence on stderr saying why
// there is none (the backend could not be loaded: most often because
// TASYNC_BACKEND_DIR is not set, which ./dev bench and meson's benchmark
// environment set) and exit status 1: never a silent abort.
#pragma once

#include <tasync/tasync.h>

#include <cstdio>
#include <cstdlib>

namespace tasync_bench {

inline tasync_runtime_t *create_runtime(tasync_runtime_options_t o) {
    char err[256] = "";
    o.errbuf = err;
    o.errbuf_size = sizeof(err);
    tasync_runtime_t *rt = nullptr;
    if (int rc = tasync_runtime_create(&o, &rt); rc != 0) {
        const char *dir = std::getenv("TASYNC_BACKEND_DIR");
        std::fprintf(stderr, "cannot create a runtime on backend %s: %s (%s)\n",
                     o.backend != nullptr ? o.backend : "uv (the default)", err[0] ? err : "no reason given",
                     tasync_strerror(rc));
        if (dir == nullptr || dir[0] == '\0') {
            std::fprintf(stderr,
                         "TASYNC_BACKEND_DIR is not set: point it at the backends of this build, e.g.\n"
                         "  TASYNC_BACKEND_DIR=$PWD/build-release/backends %s\n",
                         "build-release/benchmarks/<program>");
        }
        std::exit(1);
    }
    return rt;
}

}  // namespace tasync_bench
