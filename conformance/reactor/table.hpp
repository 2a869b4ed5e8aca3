// Loading a backend shared object and validating its table, as the
// conformance tool does it. The rules are the ones every host applies
// (docs/backend-guide.md, reactor.h): same ABI major, a table at least as large as
// an ABI 1.0 table, every entry TASYNC_BACKEND_ENTRIES calls required
// present. The table is then
// copied to the size these headers know, zero-filled past what the backend
// provided, so that optional members it lacks read as NULL, and capability
// bits whose entries are absent are cleared.
#pragma once

#include <tasync/backend.h>

#include <cstdint>
#include <string>

namespace tasync::conformance {

// The validated, normalised copy of a backend table.
struct Table {
    tasync_backend_t ops{};       // full size, zero-filled, capabilities adjusted
    std::uint32_t raw_size = 0;   // size field of the table as the backend gave it
    std::uint32_t raw_version = 0;
    std::uint64_t raw_capabilities = 0;
    std::uint64_t raw_op_mask = 0;
};

// Validates raw and fills *out. Returns 0, or TASYNC_EBACKEND_NULL_TABLE,
// TASYNC_EBACKEND_ABI_MAJOR, TASYNC_EBACKEND_TABLE_SMALL or
// TASYNC_EBACKEND_MISSING_OP with a sentence in *why. raw must point to at
// least raw->size readable bytes (that is the table's own promise).
int validate_table(const tasync_backend_t *raw, Table *out, std::string *why);

// Names of the required entries (TASYNC_BACKEND_ENTRIES), in table order,
// with their offsets.
struct RequiredEntry {
    const char *name;
    std::size_t offset;
};
const RequiredEntry *required_entries(std::size_t *count);

// A loaded backend: the shared object stays loaded for the life of the
// process (a backend may own threads that outlive its loops).
struct LoadedBackend {
    std::string spec;  // what the user gave
    std::string path;  // the file that was loaded
    tasync_backend_entry_fn entry = nullptr;
    const tasync_backend_t *raw = nullptr;  // as the entry returned it
    Table table;
};

// Turns the command-line argument into a file path: an argument with a '/'
// or ending in ".so" is a path; otherwise it is a backend name looked up as
// tasync-backend-<name>.so in $TASYNC_BACKEND_DIR, else in default_dir.
std::string resolve_backend(const std::string &spec, const std::string &default_dir);

// Loads and validates. Returns 0, or a TASYNC_EBACKEND_* code with the
// reason in *why (missing file, dlopen error, no entry symbol, refused ABI,
// invalid table).
int load_backend(const std::string &spec, const std::string &default_dir, LoadedBackend *out, std::string *why);

}  // namespace tasync::conformance
