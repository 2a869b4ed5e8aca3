// The raw context switch: Boost.Context's fcontext (jump_fcontext /
// make_fcontext), plus the annotations AddressSanitizer and valgrind need to
// follow a stack switch. Nothing here allocates.
#pragma once

#include <boost/context/detail/fcontext.hpp>

#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#define TASYNC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TASYNC_ASAN 1
#endif
#endif

#ifdef TASYNC_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define TASYNC_HAVE_VALGRIND 1
#endif
#endif

namespace tasync::detail {

using fcontext_t = boost::context::detail::fcontext_t;
using transfer_t = boost::context::detail::transfer_t;

inline fcontext_t make_context(char *stack_top, std::size_t usable_size, void (*fn)(transfer_t)) noexcept {
    return boost::context::detail::make_fcontext(stack_top, usable_size, fn);
}

// Per-context bookkeeping for the sanitizers. One lives in every coroutine
// and one in the runtime for the thread's own (main) stack.
struct SwitchAnnotations {
#ifdef TASYNC_ASAN
    void *fake_stack = nullptr;
    const void *bottom = nullptr;  // lowest usable address
    std::size_t size = 0;
#endif
#ifdef TASYNC_HAVE_VALGRIND
    unsigned valgrind_id = 0;
#endif
};

inline void annotate_stack_created(SwitchAnnotations &a, char *lo, std::size_t size) noexcept {
#ifdef TASYNC_ASAN
    a.bottom = lo;
    a.size = size;
    // A pooled stack still carries the shadow of the frames its previous
    // coroutine abandoned when it finished by switching away.
    __asan_unpoison_memory_region(lo, size);
#endif
#ifdef TASYNC_HAVE_VALGRIND
    a.valgrind_id = VALGRIND_STACK_REGISTER(lo, lo + size);
#endif
    (void)a;
    (void)lo;
    (void)size;
}

inline void annotate_stack_destroyed(SwitchAnnotations &a) noexcept {
#ifdef TASYNC_HAVE_VALGRIND
    if (a.valgrind_id != 0) VALGRIND_STACK_DEREGISTER(a.valgrind_id);
    a.valgrind_id = 0;
#endif
    (void)a;
}

// Call right before jump_fcontext. from_dying: the current stack will never
// be resumed (its fake stack frames can be dropped).
inline void annotate_switch_begin(SwitchAnnotations &from, const SwitchAnnotations &to, bool from_dying) noexcept {
#ifdef TASYNC_ASAN
    __sanitizer_start_switch_fiber(from_dying ? nullptr : &from.fake_stack, to.bottom, to.size);
#endif
    (void)from;
    (void)to;
    (void)from_dying;
}

// Call right after control arrives on a stack (after jump_fcontext returns,
// or first thing in a context's entry function).
inline void annotate_switch_end(SwitchAnnotations &self, SwitchAnnotations *prev) noexcept {
#ifdef TASYNC_ASAN
    const void *old_bottom = nullptr;
    std::size_t old_size = 0;
    __sanitizer_finish_switch_fiber(self.fake_stack, &old_bottom, &old_size);
    if (prev != nullptr && prev->bottom == nullptr) {
        // First switch away from the thread's own stack: learn its bounds.
        prev->bottom = old_bottom;
        prev->size = old_size;
    }
#endif
    (void)self;
    (void)prev;
}

inline transfer_t jump(fcontext_t to, void *data) noexcept {
    return boost::context::detail::jump_fcontext(to, data);
}

}  // namespace tasync::detail
