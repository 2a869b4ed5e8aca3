// Stack overflow detection: a fault inside the guard region of the running
// coroutine's stack prints a clear message and kills the process with the
// original signal. Everything else keeps the meaning it had before the
// runtime came (docs/rules.md, C26): a SIGSEGV or SIGBUS that the kernel did not
// raise for a fault (kill(), sigqueue(), tgkill(): si_code <= 0), or a fault
// outside a guard region, goes to the disposition that was installed before
// ours: its handler runs (PHP's, a sanitizer's), an ignored sent signal stays
// ignored, and the default action is restored and the signal raised again,
// so the process dies of it with the status plain PHP would have.
//
// The handler is process-wide by nature (signal dispositions are): it is
// installed while at least one thread has a runtime and the previous
// disposition is put back when the last one goes, so that a process that no
// longer runs coroutines (the next request of a PHP worker, a child that
// exec()s) has exactly the dispositions it had. It only reads thread-local
// state. Each runtime thread gets an alternate signal stack, since the
// overflowing stack cannot run it.
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
std::mutex g_install_mutex;
unsigned g_users = 0;  // threads whose runtime installed the handler

thread_local char *tls_altstack = nullptr;
thread_local std::size_t tls_altstack_size = 0;
thread_local bool tls_installed = false;

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

// A fault the kernel raised for the instruction that is running: returning
// from the handler executes it again. SI_USER, SI_QUEUE, SI_TKILL and the
// other codes of sent signals are zero or negative.
bool is_fault(const siginfo_t *si) { return si != nullptr && si->si_code > 0; }

void restore_default(int sig) {
    struct sigaction dfl;
    std::memset(&dfl, 0, sizeof(dfl));
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, nullptr);
}

// Hands the signal to the disposition installed before ours.
void pass_on(int sig, siginfo_t *si, void *uctx) {
    const struct sigaction &prev = sig == SIGBUS ? g_prev_bus : g_prev_segv;
    const bool handler = (prev.sa_flags & SA_SIGINFO) ? prev.sa_sigaction != nullptr
                                                      : prev.sa_handler != SIG_DFL && prev.sa_handler != SIG_IGN &&
                                                            prev.sa_handler != nullptr;
    if (handler) {
        // A one-shot handler would have been reset by the kernel.
        if (prev.sa_flags & SA_RESETHAND) restore_default(sig);
        if (prev.sa_flags & SA_SIGINFO) {
            prev.sa_sigaction(sig, si, uctx);
        } else {
            prev.sa_handler(sig);
        }
        return;
    }
    if (!(prev.sa_flags & SA_SIGINFO) && prev.sa_handler == SIG_IGN) {
        // A sent signal stays ignored. A fault cannot be: its instruction
        // would fault again forever, so the kernel's rule applies (an
        // ignored fault signal kills with the default action).
        if (is_fault(si)) restore_default(sig);
        return;
    }
    // The default action: put it back, and let it act. A fault executes
    // its instruction again on return; a sent signal is raised again, and
    // is delivered (blocked while this handler runs) as soon as it returns.
    restore_default(sig);
    if (!is_fault(si)) raise(sig);
}

void on_fault(int sig, siginfo_t *si, void *uctx) {
    tasync_runtime *rt = tls_runtime;
    if (is_fault(si) && rt != nullptr && rt->current != nullptr && rt->current->stack && rt->stacks) {
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
            restore_default(sig);
            return;
        }
    }
    pass_on(sig, si, uctx);
}

bool ours(int sig) {
    struct sigaction cur;
    return sigaction(sig, nullptr, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == &on_fault;
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

// Puts the previous dispositions back, unless someone installed a handler
// over ours meanwhile (it may chain to ours: leave it as it is).
void remove_process_handler() {
    if (ours(SIGSEGV)) sigaction(SIGSEGV, &g_prev_segv, nullptr);
    if (ours(SIGBUS)) sigaction(SIGBUS, &g_prev_bus, nullptr);
}

}  // namespace

void install_overflow_handler(tasync_runtime *) {
    if (!tls_installed) {
        std::lock_guard<std::mutex> lock(g_install_mutex);
        if (g_users++ == 0) install_process_handler();
        tls_installed = true;
    }
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
    if (tls_installed) {
        std::lock_guard<std::mutex> lock(g_install_mutex);
        if (--g_users == 0) remove_process_handler();
        tls_installed = false;
    }
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
