// The randomized tester's host (api/include/tasync/host.h): values and
// errors are counted objects that are never freed before the episode ends,
// so that every retain and release the core makes can be checked (a release
// below zero, a retain of a dead object, an object alive after
// tasync_runtime_destroy) and pointer identity stays unambiguous.
#pragma once

#include <tasync/tasync.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tasync_random {

class Episode;

// What every host object starts with; magic tells values from errors and
// catches pointers the host never made.
struct HostObject {
    static constexpr std::uint32_t kValueMagic = 0x56414c55;  // "VALU"
    static constexpr std::uint32_t kErrorMagic = 0x4552524f;  // "ERRO"
    std::uint32_t magic = 0;
    int refs = 1;
    std::uint64_t serial = 0;   // creation order within the episode
    std::uint64_t born_op = 0;  // the operation that created it
    std::string what;           // for leak reports
};

struct Value : HostObject {
    long v = 0;
};

struct Error : HostObject {
    int kind = 0;
    int code = 0;
    bool made_by_core = false;
};

class Host {
public:
    explicit Host(Episode *ep);
    Host(const Host &) = delete;
    Host &operator=(const Host &) = delete;

    const tasync_host_t *table() const { return &table_; }

    // Objects made by the tester itself (one reference, the caller's).
    Value *value(long v, const std::string &what);
    Error *error(int kind, const std::string &what);
    void release(Value *v);
    void release(Error *e);
    void retain(Value *v);
    void retain(Error *e);

    // Validates a pointer the core handed over.
    bool is_value(const void *p) const;
    bool is_error(const void *p) const;

    long live_values() const { return live_values_; }
    long live_errors() const { return live_errors_; }
    // One line per object still alive, oldest first (at most max lines).
    std::string describe_live(std::size_t max) const;
    std::uint64_t warnings() const { return warning_count_; }
    const std::vector<std::string> &recent_warnings() const { return recent_warnings_; }

private:
    static void value_retain(void *h, void *v);
    static void value_release(void *h, void *v);
    static void error_retain(void *h, void *e);
    static void error_release(void *h, void *e);
    static void *error_create(void *h, int kind, int code, const char *message);
    static int error_is_cancellation(void *h, void *e);
    static size_t error_describe(void *h, void *e, char *buf, size_t len);
    static void coroutine_enter(void *h, tasync_coroutine_t *co, void *co_data);
    static void coroutine_leave(void *h, tasync_coroutine_t *co, void *co_data);
    static void coroutine_free(void *h, tasync_coroutine_t *co, void *co_data);
    static void warning(void *h, const char *message);
    static int capture_location(void *h, tasync_location_t *out);

    void check_alive(const HostObject *o, const char *what) const;

    Episode *ep_;
    tasync_host_t table_{};
    std::vector<std::unique_ptr<Value>> values_;
    std::vector<std::unique_ptr<Error>> errors_;
    long live_values_ = 0;
    long live_errors_ = 0;
    std::uint64_t serial_ = 0;
    std::uint64_t warning_count_ = 0;
    std::vector<std::string> recent_warnings_;
    std::string location_file_ = "random.php";
};

}  // namespace tasync_random
