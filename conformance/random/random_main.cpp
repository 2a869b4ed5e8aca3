// tasync-random: the randomized operation tester of the runtime (issue 10,
// item 5). It drives libtasync through the public C ABI only (runtime.h,
// scope.h, group.h, context.h), with random sequences of operations drawn
// from a seed: spawn (current scope, a given scope, a group), yield, park and
// resume, await (coroutines, futures, timeouts, group awaitables, await_any;
// with and without cancellation awaitables), cancellation (before start,
// while suspended, self), protect sections, scope create/inherit/cancel/
// dispose (every strategy), scope waits, exception handlers that handle,
// rethrow or raise, task groups (keys, concurrency limits, all/race/any,
// wait_next), delays, fd waits and completion operations on pipes and
// socket pairs, offloaded work, callback timers, contexts, introspection,
// graceful and forced shutdown, and the runtime's destruction with work
// left. Coroutines run random programs of their own, so nesting happens.
// After every operation a model of the tester's (episode.hpp, model.hpp) is
// compared with the runtime; rule expectations still being settled are in
// expect.hpp.
//
// Work is split in episodes (one runtime each, a few thousand operations);
// each episode's seed derives from the run's seed. A failure prints the
// episode seed, the operation and the last operations, with the command
// that replays exactly that episode, e.g.:
//
//   TASYNC_TEST_BACKEND=uv TASYNC_BACKEND_DIR=build/backends
//     build/conformance/random/tasync-random --episode-seed=123456789 --episode-ops=1500
// (one command line)
//
// An episode is a function of its seed and operation count: the runtime
// runs on the tester's virtual clock (clock.hpp), which also orders the
// offloaded work, so the replay does what the failing run did, at the same
// operation. Options (also as environment variables):
//   --ops=N            operations in all (TASYNC_RANDOM_OPS; default 1000000)
//   --seed=S|time      the run's seed (TASYNC_RANDOM_SEED; default 1)
//   --episode-seed=E   run the one episode E
//   --episode-ops=N    operations per episode (default: drawn, 200-3000)
//   --keep-going       go on after a failing episode, report them all
//   --replay-check[=N] run every episode (every N-th) twice and fail one
//                      whose second run differs from the first in any
//                      operation, outcome or virtual time
//                      (TASYNC_RANDOM_REPLAY_CHECK=N)
//   --wall-cap=S       an episode running longer than S seconds is a hang (60)
//   --fingerprints     print one line per episode: its seed, operations and
//                      a hash of its whole trace with the virtual times (two
//                      processes running the same --seed print the same
//                      lines: diff them)
//   --verbose          print the trace, with the model's steps, as it goes
//   --trace            report the whole trace, with the model's steps, on a
//                      failure only (timing stays closer to a plain run's)
// The backend is $TASYNC_TEST_BACKEND (uv, uring, ev; default uv). Besides
// the run, Random.FoundEpisodesStayFixed runs every episode that once
// failed (found.hpp), each twice: add a failure's episode there with its fix.
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>

#include "episode.hpp"
#include "found.hpp"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define TASYNC_RANDOM_LSAN 1
#endif

namespace {

tasync_random::Options g_opts;
std::uint64_t g_episode_seed = 0;
bool g_one_episode = false;
bool g_fingerprints = false;

std::uint64_t parse_u64(const char *s) { return std::strtoull(s, nullptr, 0); }

void parse(int argc, char **argv) {
    if (const char *e = std::getenv("TASYNC_RANDOM_OPS")) g_opts.ops = parse_u64(e);
    if (const char *e = std::getenv("TASYNC_RANDOM_SEED")) g_opts.seed = parse_u64(e);
    if (const char *e = std::getenv("TASYNC_RANDOM_REPLAY_CHECK")) g_opts.replay_check = static_cast<unsigned>(parse_u64(e));
    const char *b = std::getenv("TASYNC_TEST_BACKEND");
    g_opts.backend = b != nullptr && *b != '\0' ? b : "uv";
    // The replay command names this very program and backend directory.
    char self[4096];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n > 0) g_opts.program.assign(self, static_cast<std::size_t>(n));
    if (const char *d = std::getenv("TASYNC_BACKEND_DIR"); d != nullptr && *d != '\0') g_opts.backend_dir = d;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&](const char *name) -> const char * {
            const std::size_t n = std::strlen(name);
            return a.compare(0, n, name) == 0 ? argv[i] + n : nullptr;
        };
        if (const char *v = value("--ops=")) g_opts.ops = parse_u64(v);
        else if (const char *v2 = value("--seed=")) {
            g_opts.seed = std::strcmp(v2, "time") == 0
                              ? static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count())
                              : parse_u64(v2);
        } else if (const char *v3 = value("--episode-seed=")) {
            g_episode_seed = parse_u64(v3);
            g_one_episode = true;
        } else if (const char *v4 = value("--episode-ops=")) g_opts.episode_ops = parse_u64(v4);
        else if (const char *v5 = value("--wall-cap=")) g_opts.wall_cap_s = static_cast<unsigned>(parse_u64(v5));
        else if (a == "--keep-going") g_opts.keep_going = true;
        else if (a == "--replay-check") g_opts.replay_check = 1;
        else if (const char *v6 = value("--replay-check=")) g_opts.replay_check = static_cast<unsigned>(parse_u64(v6));
        else if (a == "--verbose") g_opts.verbose = true;
        else if (a == "--fingerprints") g_fingerprints = g_opts.fingerprints = true;
        else if (a == "--trace") g_opts.trace_all = true;
        else {
            std::fprintf(stderr, "tasync-random: unknown option %s\n", argv[i]);
            std::exit(2);
        }
    }
}

// Runs one episode; with --replay-check twice, the second run compared
// with the first (a replay that diverges fails the episode).
tasync_random::EpisodeResult run_episode(std::uint64_t seed, bool check) {
    using namespace tasync_random;
    EpisodeResult r;
    {
        Episode ep(g_opts, seed);
        r = ep.run();
    }
#ifdef TASYNC_RANDOM_LSAN
    // Under ASan every episode is checked for leaks of its own (the core's
    // objects are not host objects: the model does not count them), until
    // the first one (LeakSanitizer reports what is leaked so far, each
    // time).
    static bool leak_checks = true;
    if (leak_checks && r.ok && __lsan_do_recoverable_leak_check() != 0) {
        leak_checks = false;
        std::ostringstream os;
        os << "\n== tasync random tester: episode seed " << seed << " leaked memory (LeakSanitizer's report above)"
           << "\n   replay: TASYNC_TEST_BACKEND=" << g_opts.backend << " TASYNC_BACKEND_DIR=" << g_opts.backend_dir << " "
           << g_opts.program << " --episode-seed=" << seed << " --episode-ops=" << r.budget << "\n";
        std::fputs(os.str().c_str(), stderr);
        r.ok = false;
        r.report = os.str();
        return r;
    }
#endif
    if (!check || !r.ok) return r;
    EpisodeResult again;
    {
        Episode ep(g_opts, seed);
        again = ep.run();
    }
    std::size_t i = 0;
    while (i < r.fingerprint.size() && i < again.fingerprint.size() && r.fingerprint[i] == again.fingerprint[i]) ++i;
    if (again.ok && i == r.fingerprint.size() && i == again.fingerprint.size() && again.ops == r.ops) return r;
    std::ostringstream os;
    os << "\n== tasync random tester: episode seed " << seed << " does not replay exactly: ";
    if (!again.ok) {
        os << "its second run failed (report above)";
    } else {
        os << "the runs part at trace line " << i << " (operation "
           << (i < r.fingerprint_ops.size() ? r.fingerprint_ops[i] : r.ops) << " of the first run, "
           << (i < again.fingerprint_ops.size() ? again.fingerprint_ops[i] : again.ops)
           << " of the second; compare the two runs' --verbose traces)";
    }
    os << "\n   replay: TASYNC_TEST_BACKEND=" << g_opts.backend << " TASYNC_BACKEND_DIR=" << g_opts.backend_dir << " "
       << g_opts.program << " --episode-seed=" << seed << " --episode-ops=" << r.budget << " --replay-check\n";
    std::fputs(os.str().c_str(), stderr);
    r.ok = false;
    r.report = os.str();
    return r;
}

}  // namespace

TEST(Random, OperationsKeepTheModelsInvariants) {
    using namespace tasync_random;
    const auto start = std::chrono::steady_clock::now();
    std::uint64_t total = 0;
    std::uint64_t episodes = 0;
    std::uint64_t failures = 0;
    // First, so that a run that dies says how to run it again.
    if (!g_one_episode)
        std::printf("tasync-random: backend %s, seed %llu, %llu operations\n", g_opts.backend.c_str(),
                    static_cast<unsigned long long>(g_opts.seed), static_cast<unsigned long long>(g_opts.ops));
    std::fflush(stdout);
    if (g_one_episode) {
        EpisodeResult r = run_episode(g_episode_seed, g_opts.replay_check != 0);
        total = r.ops;
        episodes = 1;
        if (!r.ok) {
            ++failures;
            ADD_FAILURE() << "episode seed " << g_episode_seed << " failed (report above)";
        }
    } else {
        for (std::uint64_t i = 0; total < g_opts.ops; ++i) {
            const std::uint64_t s = mix_seed(g_opts.seed, i);
            EpisodeResult r = run_episode(s, g_opts.replay_check != 0 && i % g_opts.replay_check == 0);
            total += r.ops;
            ++episodes;
            if (g_opts.verbose) std::printf("episode %llu seed %llu: %llu ops\n", static_cast<unsigned long long>(i),
                                            static_cast<unsigned long long>(s), static_cast<unsigned long long>(r.ops));
            if (g_fingerprints) {
                std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the per-line hashes
                for (std::uint64_t f : r.fingerprint) h = (h ^ f) * 1099511628211ull;
                std::printf("episode %llu seed %llu: %llu ops, %zu trace lines, fingerprint %016llx\n",
                            static_cast<unsigned long long>(i), static_cast<unsigned long long>(s),
                            static_cast<unsigned long long>(r.ops), r.fingerprint.size(),
                            static_cast<unsigned long long>(h));
            }
            if (!r.ok) {
                ++failures;
                ADD_FAILURE() << r.report;
                if (!g_opts.keep_going) break;
            }
        }
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("tasync-random: backend %s, seed %llu: %llu operations in %llu episodes, %.1f s, %.0f operations/s, "
                "%llu failing episode(s)\n",
                g_opts.backend.c_str(), static_cast<unsigned long long>(g_opts.seed),
                static_cast<unsigned long long>(total), static_cast<unsigned long long>(episodes), secs,
                secs > 0 ? static_cast<double>(total) / secs : 0.0, static_cast<unsigned long long>(failures));
    if (failures != 0 && !g_one_episode) {
        // Each failing episode printed its own replay command; this one
        // runs the whole sequence again.
        std::printf("tasync-random: the whole run again: TASYNC_TEST_BACKEND=%s TASYNC_BACKEND_DIR=%s %s --ops=%llu "
                    "--seed=%llu --keep-going\n",
                    g_opts.backend.c_str(), g_opts.backend_dir.c_str(), g_opts.program.c_str(),
                    static_cast<unsigned long long>(g_opts.ops), static_cast<unsigned long long>(g_opts.seed));
    }
}

// The episodes that once failed (found.hpp), each run twice on this
// backend: it passes, and its second run is the first one's replay.
TEST(Random, FoundEpisodesStayFixed) {
    using namespace tasync_random;
    if (g_one_episode) GTEST_SKIP() << "one episode asked for";
    const Options saved = g_opts;
    for (const FoundEpisode &f : kFoundEpisodes) {
        g_opts.episode_ops = f.ops;
        EpisodeResult r = run_episode(f.seed, true);
        EXPECT_TRUE(r.ok) << "episode seed " << f.seed << ", which once failed with '" << f.what << "', fails:\n"
                          << r.report;
    }
    g_opts = saved;
}

namespace {

// A crash prints the episode's seed and last operations before the
// process dies as it would have (installed before any runtime, so that the
// core's guard-page handler chains to it, C26).
void on_fatal(int sig) {
    if (tasync_random::Episode *ep = tasync_random::running_episode()) ep->crash_report(sig);
    signal(sig, SIG_DFL);
    raise(sig);
}

void install_crash_report() {
    static char alt[64 * 1024];
    stack_t ss{};
    ss.ss_sp = alt;
    ss.ss_size = sizeof(alt);
    sigaltstack(&ss, nullptr);
    struct sigaction sa {};
    sa.sa_handler = &on_fatal;
    sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    // SIGABRT too: glibc's malloc aborts on a double free.
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(sig, &sa, nullptr);
}

}  // namespace

int main(int argc, char **argv) {
    ::testing::InitGoogleTest(&argc, argv);
    parse(argc, argv);
    install_crash_report();
    return RUN_ALL_TESTS();
}
