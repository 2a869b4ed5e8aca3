// Loading a reactor backend shared object and validating its table
// (docs/backend-guide.md): missing file, missing entry symbol, NULL table, wrong
// ABI major, table too small, missing required entry, and loop_create
// failure all give a clear message and no crash.
#pragma once

#include <tasync/reactor.h>

#include <string>

namespace tasync::detail {

// The backend a runtime loads when its options name none, and the one the
// fallback (TASYNC_RUNTIME_FALLBACK_DEFAULT) loads instead of a backend
// that cannot be used: the one place that names it.
inline constexpr const char *kDefaultBackend = "uv";

class LoadedBackend {
public:
    LoadedBackend() = default;
    ~LoadedBackend();
    LoadedBackend(const LoadedBackend &) = delete;
    LoadedBackend &operator=(const LoadedBackend &) = delete;

    // Resolves spec (a name, or a path containing '/') against dir and loads
    // it. Returns 0 or a TASYNC_EBACKEND_* code with the reason in *why.
    int load(const char *spec, const std::string &dir, std::string *why);

    // The table, copied to the full size this core knows and zero-filled:
    // members the backend did not have are NULL, capabilities adjusted.
    const tasync_backend_t &ops() const noexcept { return ops_; }
    const std::string &path() const noexcept { return path_; }
    std::uint32_t original_size() const noexcept { return original_size_; }

    // The directory backends are looked up in when none is given:
    // $TASYNC_BACKEND_DIR, else the install directory.
    static std::string default_dir();
    static std::string resolve(const char *spec, const std::string &dir);

private:
    void *dl_ = nullptr;
    tasync_backend_t ops_{};
    std::string path_;
    std::uint32_t original_size_ = 0;
};

}  // namespace tasync::detail
