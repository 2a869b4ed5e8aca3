#include "table.hpp"

#include <dlfcn.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace tasync::conformance {

namespace {

// The required entries of TASYNC_BACKEND_ENTRIES (reactor.h), in table
// order: the list the core's loader applies too.
#define TASYNC_REQUIRED_REQUIRED(member) RequiredEntry{#member, offsetof(tasync_backend_t, member)},
#define TASYNC_REQUIRED_OPTIONAL(member)
#define TASYNC_REQUIRED_UNUSED(member)
#define TASYNC_REQUIRED_(member, role, since) TASYNC_REQUIRED_##role(member)
constexpr RequiredEntry kRequired[] = {TASYNC_BACKEND_ENTRIES(TASYNC_REQUIRED_)};
#undef TASYNC_REQUIRED_
#undef TASYNC_REQUIRED_REQUIRED
#undef TASYNC_REQUIRED_OPTIONAL
#undef TASYNC_REQUIRED_UNUSED

std::string version_text(std::uint32_t v) {
    return std::to_string(TASYNC_ABI_MAJOR_OF(v)) + "." + std::to_string(TASYNC_ABI_MINOR_OF(v));
}

}  // namespace

const RequiredEntry *required_entries(std::size_t *count) {
    *count = sizeof(kRequired) / sizeof(kRequired[0]);
    return kRequired;
}

int validate_table(const tasync_backend_t *raw, Table *out, std::string *why) {
    if (raw == nullptr) {
        *why = "its entry function returned no table (it refused ABI " + version_text(TASYNC_ABI_VERSION) + ")";
        return TASYNC_EBACKEND_NULL_TABLE;
    }
    if (TASYNC_ABI_MAJOR_OF(raw->abi_version) != TASYNC_ABI_VERSION_MAJOR) {
        *why = "it was built for ABI " + version_text(raw->abi_version) + " but this tool speaks ABI " +
               version_text(TASYNC_ABI_VERSION) + " (the major versions differ)";
        return TASYNC_EBACKEND_ABI_MAJOR;
    }
    if (raw->size < TASYNC_BACKEND_REQUIRED_SIZE) {
        *why = "its table is " + std::to_string(raw->size) + " bytes; ABI 1.0 requires at least " +
               std::to_string(TASYNC_BACKEND_REQUIRED_SIZE);
        return TASYNC_EBACKEND_TABLE_SMALL;
    }
    Table t;
    t.raw_size = raw->size;
    t.raw_version = raw->abi_version;
    t.raw_capabilities = raw->capabilities;
    t.raw_op_mask = raw->op_mask;
    // Only the bytes the backend declared are read; a newer backend's tail
    // beyond what these headers know is ignored.
    std::memcpy(&t.ops, raw, raw->size < sizeof(t.ops) ? raw->size : sizeof(t.ops));
    t.ops.size = sizeof(t.ops);
    for (const RequiredEntry &r : kRequired) {
        void *fn;
        std::memcpy(&fn, reinterpret_cast<const char *>(&t.ops) + r.offset, sizeof(fn));
        if (fn == nullptr) {
            *why = std::string("its table lacks the required entry ") + r.name;
            return TASYNC_EBACKEND_MISSING_OP;
        }
    }
    // A capability whose entries the table does not have is absent.
    if (t.ops.op_submit == nullptr || t.ops.op_cancel == nullptr)
        t.ops.capabilities &= ~static_cast<std::uint64_t>(TASYNC_CAP_COMPLETION);
    if (!(t.ops.capabilities & TASYNC_CAP_COMPLETION)) t.ops.op_mask = 0;
    // A thread pool of the backend's own is no longer used (ABI 1.3).
    t.ops.capabilities &= ~static_cast<std::uint64_t>(TASYNC_CAP_OFFLOAD);
    t.ops.work_submit = nullptr;
    t.ops.work_cancel = nullptr;
    *out = t;
    return 0;
}

std::string resolve_backend(const std::string &spec, const std::string &default_dir) {
    const bool is_path = spec.find('/') != std::string::npos ||
                         (spec.size() > 3 && spec.compare(spec.size() - 3, 3, ".so") == 0);
    if (is_path) return spec.find('/') != std::string::npos ? spec : "./" + spec;
    const char *env = std::getenv("TASYNC_BACKEND_DIR");
    std::string dir = env != nullptr && *env != '\0' ? env : default_dir;
    return dir + "/tasync-backend-" + spec + ".so";
}

int load_backend(const std::string &spec, const std::string &default_dir, LoadedBackend *out, std::string *why) {
    out->spec = spec;
    out->path = resolve_backend(spec, default_dir);
    const std::string who = "backend '" + spec + "'" + (out->path != spec ? " (" + out->path + ")" : "");
    struct stat st;
    if (stat(out->path.c_str(), &st) != 0) {
        const int err = errno;
        *why = "cannot load " + who + ": " + std::strerror(err);
        if (out->path != spec && spec.find('/') == std::string::npos)
            *why += "; a name is looked up as tasync-backend-<name>.so in $TASYNC_BACKEND_DIR (else " + default_dir +
                    "); give a path to load any other file";
        return TASYNC_EBACKEND_NOT_FOUND;
    }
    if (!S_ISREG(st.st_mode)) {
        *why = "cannot load " + who + ": not a regular file";
        return TASYNC_EBACKEND_DLOPEN;
    }
    void *dl = dlopen(out->path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (dl == nullptr) {
        const char *e = dlerror();
        *why = "cannot load " + who + ": " + (e != nullptr ? e : "dlopen failed");
        return TASYNC_EBACKEND_DLOPEN;
    }
    dlerror();
    void *sym = dlsym(dl, TASYNC_BACKEND_ENTRY_SYMBOL);
    if (sym == nullptr) {
        *why = "cannot use " + who + ": it does not export the entry symbol " TASYNC_BACKEND_ENTRY_SYMBOL
               " (see tasync/backend.h)";
        return TASYNC_EBACKEND_NO_ENTRY;
    }
    static_assert(sizeof(out->entry) == sizeof(sym));
    std::memcpy(&out->entry, &sym, sizeof(sym));
    out->raw = out->entry(TASYNC_ABI_VERSION);
    std::string reason;
    const int rc = validate_table(out->raw, &out->table, &reason);
    if (rc != 0) {
        *why = "cannot use " + who + ": " + reason;
        return rc;
    }
    // The shared object is deliberately never closed (see LoadedBackend).
    return 0;
}

}  // namespace tasync::conformance
