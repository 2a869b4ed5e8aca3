// Creating a runtime: the host table, the backend (with the fallback to
// the default one, TASYNC_RUNTIME_FALLBACK_DEFAULT), the stacks, the global
// scope and the main coroutine.
#include "tasync/core/runtime.hpp"

#include <sys/resource.h>

#include <cstdio>
#include <cstring>
#include <new>

namespace tasync::detail {
namespace {

constexpr std::size_t kDefaultStackSize = 256 * 1024;
constexpr std::size_t kDefaultStackCache = 128;

}  // namespace
}  // namespace tasync::detail

using namespace tasync::detail;

int tasync_runtime::open_backend(const char *name, const std::string &dir, std::string *why) {
    int rc = backend.load(name, dir, why);
    if (rc != 0) return rc;
    char loop_err[256] = {0};
    tasync_loop_options_t lo{};
    lo.size = sizeof(lo);
    lo.errbuf = loop_err;
    lo.errbuf_size = sizeof(loop_err);
    rc = backend.ops().loop_create(&lo, &loop);
    if (rc == 0) return 0;
    loop = nullptr;
    *why = "backend '" + std::string(backend.ops().name) + "' (" + backend.path() +
           ") failed to initialise: " + (loop_err[0] ? loop_err : tasync_strerror(rc));
    return TASYNC_EBACKEND_INIT;
}

int tasync_runtime::init(const tasync_runtime_options_t &o) {
    register_atfork_handlers();
    if (o.host != nullptr) {
        std::memcpy(&host, o.host, o.host->size < sizeof(host) ? o.host->size : sizeof(host));
        host.size = sizeof(host);
    }
    host_data = o.host_data;
    switch_hooks = host.coroutine_enter != nullptr || host.coroutine_leave != nullptr;
    if (o.zombie_timeout_ns != 0) zombie_timeout_ns = o.zombie_timeout_ns;
    if (o.thread_pool_size != 0) thread_pool_size = o.thread_pool_size;

    auto report = [&](int code, const std::string &why) {
        if (o.errbuf != nullptr && o.errbuf_size > 0) std::snprintf(o.errbuf, o.errbuf_size, "%s", why.c_str());
        return code;
    };

    const std::string dir = o.backend_dir != nullptr ? o.backend_dir : "";
    std::string why;
    int rc = open_backend(o.backend, dir, &why);
    if (rc != 0) {
        const bool is_default = o.backend == nullptr || *o.backend == '\0' || std::strcmp(o.backend, kDefaultBackend) == 0;
        if (!(o.flags & TASYNC_RUNTIME_FALLBACK_DEFAULT) || is_default) return report(rc, why);
        backend.~LoadedBackend();
        new (&backend) LoadedBackend();
        std::string why2;
        rc = open_backend(kDefaultBackend, dir, &why2);
        // Warned only once the default backend works: when it fails too (no
        // descriptors left, say), the error says both.
        if (rc != 0) return report(rc, why + "; and the fallback failed too: " + why2);
        warn(why + "; using the default backend '" + kDefaultBackend + "' instead");
    }
    ops = &backend.ops();

    std::size_t ss = o.stack_size != 0 ? o.stack_size : kDefaultStackSize;
    std::size_t sc = o.stack_cache != 0 ? o.stack_cache : kDefaultStackCache;
    stacks = std::make_unique<StackPool>(ss, sc);
    // Room for posts from other threads (a pool worker's completion), so
    // that posting allocates nothing in the common case (see ThreadPool).
    posted.reserve(64);
    posted_swap.reserve(64);
    if (o.address_space_reserve != 0) stacks->set_address_space_reserve(o.address_space_reserve);
    struct rlimit as_limit;
    eager_stacks = getrlimit(RLIMIT_AS, &as_limit) == 0 && as_limit.rlim_cur != RLIM_INFINITY;

    global_scope = new_scope(nullptr);
    global_scope->is_global = true;
    zombie_timer.fire = [](TimerEntry *e) { static_cast<tasync_runtime *>(e->owner)->zombie_timer_fired(); };
    zombie_timer.owner = this;
    stuck_timer.ref = false;
    stuck_timer.fire = [](TimerEntry *e) { static_cast<tasync_runtime *>(e->owner)->stuck_timer_fired(); };
    stuck_timer.owner = this;

    main = alloc_coroutine();
    main->is_main = true;
    main->started = true;
    main->id = 0;
    main->state = Coroutine::State::Running;
    current = main;
    return 0;
}
