// Stack overflow detection: a fault inside the guard region of the running
// coroutine's stack prints a clear message and kills the process with the
// original signal. Any other fault goes to the handler that was installed
// before ours (PHP's, a sanitizer's, or the default action).
//
// The handler is process-wide by nature (signal dispositions are); it is
// installed once and only reads thread-local state. Each runtime thread gets
// an alternate signal stack, since the overflowing stack cannot run it.
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <mutex>

#include "tasync/core/runtime.hpp"

namespace tasync::detail {

namespace {

struct sigaction g_prev_segv;
struct sigaction g_prev_bus;
std::once_flag g_install_once;

thread_local char *tls_altstack = nullptr;
thread_local std::size_t tls_altstack_size = 0;

void put(const char *s) {
    ssize_t r = write(STDERR_FILENO, s, std::strlen(s));
    (void)r;
}

void put_num(unsigned long long v) {
    char buf[24];
    int i = sizeof(buf);
    buf[--i] = '\0';
    do {
        buf[--i] = static_cast<char>('0' + v % 10);
        v /= 10;
    } while (v != 0 && i > 0);
    put(buf + i);
}

void chain(int sig, siginfo_t *si, void *uctx) {
    const struct sigaction &prev = sig == SIGBUS ? g_prev_bus : g_prev_segv;
    if (prev.sa_flags & SA_SIGINFO) {
        if (prev.sa_sigaction != nullptr) {
            prev.sa_sigaction(sig, si, uctx);
            return;
        }
    } else if (prev.sa_handler == SIG_IGN) {
        return;
    } else if (prev.sa_handler != SIG_DFL && prev.sa_handler != nullptr) {
        prev.sa_handler(sig);
        return;
    }
    // Default action: restore it and let the faulting instruction fault again.
    signal(sig, SIG_DFL);
}

void on_fault(int sig, siginfo_t *si, void *uctx) {
    tasync_runtime *rt = tls_runtime;
    if (rt != nullptr && rt->current != nullptr && rt->current->stack && rt->stacks) {
        const Stack &s = rt->current->stack;
        const char *addr = static_cast<const char *>(si->si_addr);
        const std::size_t guard = rt->stacks->guard_size();
        if (addr >= s.base && addr < s.base + guard) {
            put("tasync: fatal: stack overflow in coroutine ");
            put_num(rt->current->id);
            if (rt->current->spawn_loc.file != nullptr) {
                put(" spawned at ");
                put(rt->current->spawn_loc.file);
                put(":");
                put_num(rt->current->spawn_loc.line);
            }
            put(": its stack of ");
            put_num(rt->stacks->usable_size());
            put(" bytes is exhausted (the guard page was hit); raise the stack size "
                "(tasync_runtime_options_t.stack_size, PHP ini async.stack_size)\n");
            signal(sig, SIG_DFL);
            return;
        }
    }
    chain(sig, si, uctx);
}

void install_process_handler() {
    struct sigaction sa;
    std::memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = &on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &g_prev_segv);
    sigaction(SIGBUS, &sa, &g_prev_bus);
}

}  // namespace

void install_overflow_handler(tasync_runtime *) {
    std::call_once(g_install_once, install_process_handler);
    stack_t cur;
    if (sigaltstack(nullptr, &cur) == 0 && !(cur.ss_flags & SS_DISABLE)) return;  // the thread has one
    long min = sysconf(_SC_SIGSTKSZ);
    std::size_t size = 64 * 1024;
    if (min > 0 && static_cast<std::size_t>(min) * 4 > size) size = static_cast<std::size_t>(min) * 4;
    auto *mem = static_cast<char *>(std::malloc(size));
    if (mem == nullptr) return;
    stack_t ss;
    ss.ss_sp = mem;
    ss.ss_size = size;
    ss.ss_flags = 0;
    if (sigaltstack(&ss, nullptr) != 0) {
        std::free(mem);
        return;
    }
    tls_altstack = mem;
    tls_altstack_size = size;
}

void remove_overflow_handler(tasync_runtime *) {
    if (tls_altstack == nullptr) return;
    stack_t ss;
    std::memset(&ss, 0, sizeof(ss));
    ss.ss_flags = SS_DISABLE;
    sigaltstack(&ss, nullptr);
    std::free(tls_altstack);
    tls_altstack = nullptr;
    tls_altstack_size = 0;
}

}  // namespace tasync::detail
