#include "tasync/core/backend_loader.hpp"

#include <tasync/backend.h>

#include "tasync/core/signals.hpp"

#include <dlfcn.h>
#include <sys/stat.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

#ifndef TASYNC_DEFAULT_BACKEND_DIR
#define TASYNC_DEFAULT_BACKEND_DIR "/usr/local/lib/tasync"
#endif

namespace tasync::detail {

LoadedBackend::~LoadedBackend() {
    // Backends are never unloaded: a backend may have started threads
    // (libuv's pool) that outlive the loop, and dlclose would unmap their
    // code. dlopen reference counts, so reloading is cheap.
}

namespace {

// $TASYNC_BACKEND_DIR as it was when the library was loaded, before any
// code a host runs (a PHP script's putenv()) could change it: which native
// code the process loads is the administrator's choice, not a script's.
const std::string g_env_backend_dir = [] {
    const char *env = std::getenv("TASYNC_BACKEND_DIR");
    return std::string(env != nullptr ? env : "");
}();

// A backend that anyone but its owner and root may replace is refused, as
// the dynamic loader's secure mode refuses such libraries: the file (after
// symbolic links) and the directory holding it must not be writable by
// group or others. Returns "" when safe, else the reason.
std::string unsafe_reason(const std::string &path) {
    char real[PATH_MAX];
    if (realpath(path.c_str(), real) == nullptr) return std::string("cannot resolve it: ") + std::strerror(errno);
    std::string file(real);
    std::string dir = file.substr(0, file.rfind('/'));
    if (dir.empty()) dir = "/";
    const std::pair<const char *, std::string> checked[] = {{"file", file}, {"directory", dir}};
    for (const auto &[what, p] : checked) {
        struct stat st;
        if (stat(p.c_str(), &st) != 0) return "cannot stat " + p + ": " + std::strerror(errno);
        if (st.st_mode & (S_IWGRP | S_IWOTH)) {
            char mode[8];
            std::snprintf(mode, sizeof(mode), "%03o", static_cast<unsigned>(st.st_mode & 0777));
            return std::string("the ") + what + " " + p + " is writable by others than its owner (mode " + mode +
                   "), so anyone could replace the code it runs";
        }
    }
    return "";
}

}  // namespace

std::string LoadedBackend::default_dir() {
    if (!g_env_backend_dir.empty()) return g_env_backend_dir;
    return TASYNC_DEFAULT_BACKEND_DIR;
}

std::string LoadedBackend::resolve(const char *spec, const std::string &dir) {
    if (spec == nullptr || *spec == '\0') spec = kDefaultBackend;
    if (std::strchr(spec, '/') != nullptr) return spec;
    return (dir.empty() ? default_dir() : dir) + "/tasync-backend-" + spec + ".so";
}

namespace {

struct Entry {
    const char *name;
    std::size_t offset;
    int role;
};

#define TASYNC_ENTRY_(member, role, since) Entry{#member, offsetof(tasync_backend_t, member), TASYNC_ENTRY_##role},
constexpr Entry kEntries[] = {TASYNC_BACKEND_ENTRIES(TASYNC_ENTRY_)};
#undef TASYNC_ENTRY_

}  // namespace

int LoadedBackend::load(const char *spec, const std::string &dir, std::string *why) {
    const char *shown = (spec == nullptr || *spec == '\0') ? kDefaultBackend : spec;
    path_ = resolve(spec, dir);
    const std::string who = "backend '" + std::string(shown) + "' (" + path_ + ")";

    struct stat st;
    if (stat(path_.c_str(), &st) != 0) {
        *why = "cannot load " + who + ": " + std::strerror(errno);
        if (std::strchr(shown, '/') == nullptr)
            *why += "; known backends are tasync-backend-<name>.so files in " + (dir.empty() ? default_dir() : dir);
        return TASYNC_EBACKEND_NOT_FOUND;
    }
    if (std::string unsafe = unsafe_reason(path_); !unsafe.empty()) {
        *why = "refused to load " + who + ": " + unsafe;
        return TASYNC_EBACKEND_UNSAFE;
    }
    dl_ = dlopen(path_.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (dl_ == nullptr) {
        const char *e = dlerror();
        *why = "cannot load " + who + ": " + (e != nullptr ? e : "dlopen failed");
        return TASYNC_EBACKEND_DLOPEN;
    }
    dlerror();
    void *sym = dlsym(dl_, TASYNC_BACKEND_ENTRY_SYMBOL);
    if (sym == nullptr) {
        *why = "cannot use " + who + ": it does not export " TASYNC_BACKEND_ENTRY_SYMBOL;
        return TASYNC_EBACKEND_NO_ENTRY;
    }
    tasync_backend_entry_fn entry;
    static_assert(sizeof(entry) == sizeof(sym));
    std::memcpy(&entry, &sym, sizeof(entry));
    const tasync_backend_t *table = entry(TASYNC_ABI_VERSION);
    if (table == nullptr) {
        *why = "cannot use " + who + ": its entry function returned no table (it refused ABI " +
               std::to_string(TASYNC_ABI_VERSION_MAJOR) + "." + std::to_string(TASYNC_ABI_VERSION_MINOR) + ")";
        return TASYNC_EBACKEND_NULL_TABLE;
    }
    const std::uint32_t major = TASYNC_ABI_MAJOR_OF(table->abi_version);
    if (major != TASYNC_ABI_VERSION_MAJOR) {
        *why = "cannot use " + who + ": it was built for ABI " + std::to_string(major) + "." +
               std::to_string(TASYNC_ABI_MINOR_OF(table->abi_version)) + " but this core speaks ABI " +
               std::to_string(TASYNC_ABI_VERSION_MAJOR) + "." + std::to_string(TASYNC_ABI_VERSION_MINOR);
        return TASYNC_EBACKEND_ABI_MAJOR;
    }
    if (table->size < TASYNC_BACKEND_REQUIRED_SIZE) {
        *why = "cannot use " + who + ": its table is " + std::to_string(table->size) + " bytes, ABI 1.0 requires at least " +
               std::to_string(TASYNC_BACKEND_REQUIRED_SIZE);
        return TASYNC_EBACKEND_TABLE_SMALL;
    }
    original_size_ = table->size;
    std::memset(&ops_, 0, sizeof(ops_));
    std::memcpy(&ops_, table, table->size < sizeof(ops_) ? table->size : sizeof(ops_));
    ops_.size = sizeof(ops_);
    for (const Entry &e : kEntries) {
        void *fn;
        std::memcpy(&fn, reinterpret_cast<const char *>(&ops_) + e.offset, sizeof(fn));
        if (e.role == TASYNC_ENTRY_REQUIRED && fn == nullptr) {
            *why = "cannot use " + who + ": its table lacks the required entry " + e.name;
            return TASYNC_EBACKEND_MISSING_OP;
        }
        if (e.role == TASYNC_ENTRY_UNUSED && fn != nullptr) {
            // An older backend's timers, signal and child watches (ABI
            // 1.0/1.1) and thread pool (up to 1.2): never called (the core
            // owns them), so never kept.
            fn = nullptr;
            std::memcpy(reinterpret_cast<char *>(&ops_) + e.offset, &fn, sizeof(fn));
        }
    }
    if (ops_.name == nullptr) ops_.name = "unnamed";
    if (ops_.version == nullptr) ops_.version = "unknown";
    // A capability whose entries are absent (an older or sloppy table) is
    // treated as absent.
    if (ops_.op_submit == nullptr || ops_.op_cancel == nullptr) {
        ops_.capabilities &= ~static_cast<std::uint64_t>(TASYNC_CAP_COMPLETION);
    }
    if (!(ops_.capabilities & TASYNC_CAP_COMPLETION)) ops_.op_mask = 0;
    // The core runs offloaded work on its own pool (ABI 1.3).
    ops_.capabilities &= ~static_cast<std::uint64_t>(TASYNC_CAP_OFFLOAD);
    // Child exits are the core's: the bit says what the core uses.
    ops_.capabilities &= ~static_cast<std::uint64_t>(TASYNC_CAP_PIDFD);
    if (children_use_pidfd()) ops_.capabilities |= TASYNC_CAP_PIDFD;
    return 0;
}

}  // namespace tasync::detail
