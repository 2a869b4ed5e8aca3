// The runtime's glue to its host (host.h): error objects (the host's, or
// small built-in ones when it gives none), warnings and source locations.
#include "tasync/core/runtime.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tasync::detail {

[[noreturn]] void fatal(const char *what) {
    std::fprintf(stderr, "tasync: fatal: %s\n", what);
    std::abort();
}

namespace {

// ---------------------------------------------------------- built-in errors
// Used when the host gives no error_create: small refcounted objects.
struct BuiltinError {
    std::uint32_t refs;
    int kind;
    int code;
    char message[1];
};

void *builtin_error_create(int kind, int code, const std::string &msg) {
    auto *e = static_cast<BuiltinError *>(std::malloc(sizeof(BuiltinError) + msg.size()));
    if (e == nullptr) fatal("out of memory creating an error");
    e->refs = 1;
    e->kind = kind;
    e->code = code;
    std::memcpy(e->message, msg.c_str(), msg.size() + 1);
    return e;
}

const char *builtin_kind_name(int kind) {
    switch (kind) {
        case TASYNC_ERROR_CANCELLATION: return "CancellationError";
        case TASYNC_ERROR_AWAIT_CANCELLED: return "AwaitCancelledException";
        case TASYNC_ERROR_DEADLOCK: return "DeadlockError";
        case TASYNC_ERROR_INVALID_ARGUMENT: return "ValueError";
        case TASYNC_ERROR_SYSTEM: return "SystemError";
        default: return "AsyncException";
    }
}

}  // namespace
}  // namespace tasync::detail

using namespace tasync::detail;

// ================================================================== runtime

void tasync_runtime::retain_error(void *e) {
    if (e == nullptr) return;
    if (host.error_create == nullptr) {
        ++static_cast<BuiltinError *>(e)->refs;
    } else if (host.error_retain) {
        host.error_retain(host_data, e);
    }
}

void tasync_runtime::release_error(void *e) {
    if (e == nullptr) return;
    if (host.error_create == nullptr) {
        auto *b = static_cast<BuiltinError *>(e);
        if (--b->refs == 0) std::free(b);
    } else if (host.error_release) {
        host.error_release(host_data, e);
    }
}

void *tasync_runtime::make_error(int kind, int code, const std::string &message) {
    if (host.error_create == nullptr) return builtin_error_create(kind, code, message);
    void *e = host.error_create(host_data, kind, code, message.c_str());
    if (e == nullptr) fatal("the host's error_create returned NULL");
    return e;
}

bool tasync_runtime::is_cancellation(void *e) {
    if (e == nullptr) return false;
    if (host.error_create == nullptr) {
        int k = static_cast<BuiltinError *>(e)->kind;
        return k == TASYNC_ERROR_CANCELLATION || k == TASYNC_ERROR_AWAIT_CANCELLED;
    }
    return host.error_is_cancellation != nullptr && host.error_is_cancellation(host_data, e) != 0;
}

std::string tasync_runtime::describe_error(void *e) {
    if (e == nullptr) return "no error";
    if (host.error_create == nullptr) {
        auto *b = static_cast<BuiltinError *>(e);
        return std::string(builtin_kind_name(b->kind)) + ": " + b->message;
    }
    if (host.error_describe == nullptr) return "error";
    char buf[512];
    std::size_t want = host.error_describe(host_data, e, buf, sizeof(buf));
    if (want < sizeof(buf)) return std::string(buf, want);
    std::string big(want + 1, '\0');
    host.error_describe(host_data, e, big.data(), big.size());
    big.resize(want);
    return big;
}

void tasync_runtime::warn(const std::string &message, const tasync_location_t &about) {
    if (host.warning_at != nullptr) {
        tasync_location_t where = capture_location();
        if (where.file == nullptr) where = about;
        host.warning_at(host_data, message.c_str(), &where);
        return;
    }
    if (host.warning) host.warning(host_data, message.c_str());
    else std::fprintf(stderr, "tasync: warning: %s\n", message.c_str());
}

tasync_location_t tasync_runtime::capture_location() {
    tasync_location_t loc{};
    if (host.capture_location && host.capture_location(host_data, &loc) != 0) loc = {};
    return loc;
}

std::string tasync_runtime::format_location(const tasync_location_t &loc) {
    if (loc.file == nullptr) return "unknown location";
    return std::string(loc.file) + ":" + std::to_string(loc.line);
}
