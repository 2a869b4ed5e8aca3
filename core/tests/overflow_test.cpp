// A stack overflow in a coroutine dies on the guard page with a clear
// message, instead of corrupting memory.
#include "test_host.hpp"

namespace {

#if defined(__clang__)
__attribute__((optnone))
#else
__attribute__((optimize("O0")))
#endif
int recurse(int depth) {
    volatile char buf[512];
    buf[0] = static_cast<char>(depth);
    // Unbounded on purpose: it ends on the guard page. The condition only
    // tells the compiler so.
    if (depth < 0) return buf[0];
    return recurse(depth + 1) + buf[0];
}

void overflow_in_coroutine() {
    tasync_runtime_options_t o{};
    o.size = sizeof(o);
    o.stack_size = 64 * 1024;
    tasync_runtime_t *rt = nullptr;
    if (tasync_runtime_create(&o, &rt) != 0) std::abort();
    tasync_spawn_options_t so{};
    so.size = sizeof(so);
    so.entry = [](tasync_coroutine_t *, void *) { recurse(0); };
    tasync_spawn(rt, &so, nullptr, nullptr);
    tasync_runtime_run(rt);
}

}  // namespace

TEST(OverflowDeathTest, StackOverflowHitsTheGuardPage) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(overflow_in_coroutine(), "stack overflow in coroutine 1.*guard page");
}
