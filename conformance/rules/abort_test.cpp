// Rule C22's core half: tasync_runtime_abort marks and cancels every
// unfinished coroutine so that the host ends them without running more of
// their code (PHP: after a fatal error, at the end of the request). The
// host reads only the mark, TASYNC_CO_ABORTED.
#include <algorithm>

#include "rules.hpp"

using namespace tasync_rules;

class Abort : public Rules {
protected:
    static bool aborted(tasync_coroutine_t *co) { return (flags(co) & TASYNC_CO_ABORTED) != 0; }
    tasync_coroutine_t *main_co() { return tasync_coroutine_current(rt); }
};

TEST_F(Abort, C22_AbortMarksAndWakesEveryUnfinishedCoroutineButNotTheMainOne) {
    int waited_rc = 0;
    std::string waited_error;
    bool marked_when_woken = false;
    tasync_coroutine_t *waiting = spawn([&](tasync_coroutine_t *self) {
        void *e = nullptr;
        waited_rc = tasync_delay(rt, 60000 * kMs, nullptr, &e);
        waited_error = message_of(e);
        release_error(e);
        marked_when_woken = aborted(self);
    });
    tasync_coroutine_t *finished = spawn([&](tasync_coroutine_t *) { say("finished ran"); });
    EXPECT_EQ(tasync_yield(rt, nullptr), 0);  // both start; one finishes
    bool queued_ran = false;
    tasync_coroutine_t *queued = spawn([&](tasync_coroutine_t *) { queued_ran = true; });

    Error *why = cancellation("the request ends");
    EXPECT_EQ(tasync_runtime_abort(rt, TASYNC_ABORT_END, why), 2) << "the waiting and the queued one";
    host.release(why);
    EXPECT_TRUE(aborted(waiting));
    EXPECT_TRUE(aborted(queued));
    EXPECT_FALSE(aborted(finished)) << "finished before the abort";
    EXPECT_FALSE(aborted(main_co())) << "TASYNC_ABORT_END leaves the main flow alone";
    EXPECT_TRUE(flags(waiting) & TASYNC_CO_CANCEL_REQUESTED);

    // Spawned after the abort: not marked, runs (PHP: a shutdown function's).
    bool late_ran = false;
    tasync_coroutine_t *late = spawn([&](tasync_coroutine_t *self) {
        late_ran = !aborted(self);
        delay(60000);
    });
    EXPECT_EQ(tasync_yield(rt, nullptr), 0);
    EXPECT_FALSE(aborted(late));
    EXPECT_EQ(waited_rc, -ECANCELED) << "the abort's cancellation ended the wait at once";
    EXPECT_EQ(waited_error, "the request ends") << "with the error given";
    EXPECT_TRUE(marked_when_woken) << "the mark is there when the coroutine resumes";
    EXPECT_FALSE(queued_ran) << "never started (C7)";
    EXPECT_TRUE(late_ran);

    // Again: only what was spawned since is marked; the default error.
    EXPECT_EQ(tasync_runtime_abort(rt, TASYNC_ABORT_END, nullptr), 1);
    EXPECT_TRUE(aborted(late));
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(tasync_runtime_take_error(rt), nullptr) << "an abort is no unhandled error";
    EXPECT_TRUE(aborted(waiting)) << "the mark stays on a finished coroutine";
    EXPECT_EQ(out, (std::vector<std::string>{"finished ran"}));
    EXPECT_EQ(tasync_runtime_abort(rt, TASYNC_ABORT_END, nullptr), 0) << "nothing unfinished is left";
    for (tasync_coroutine_t *co : {waiting, finished, queued, late}) tasync_coroutine_release(co);
}

TEST_F(Abort, C22_TheDefaultErrorIsACancellationSayingTheProgramIsShuttingDown) {
    int kind = 0;
    std::string msg;
    go([&](tasync_coroutine_t *) {
        void *e = nullptr;
        EXPECT_EQ(tasync_delay(rt, 60000 * kMs, nullptr, &e), -ECANCELED);
        kind = kind_of(e);
        msg = message_of(e);
        release_error(e);
    });
    EXPECT_EQ(tasync_yield(rt, nullptr), 0);
    EXPECT_EQ(tasync_runtime_abort(rt, TASYNC_ABORT_FATAL, nullptr), 1) << "the caller, main, is not marked";
    EXPECT_FALSE(aborted(main_co()));
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(kind, TASYNC_ERROR_CANCELLATION);
    EXPECT_EQ(msg, "The program is shutting down");
}

TEST_F(Abort, C22_AFatalAbortMarksAndWakesTheMainFlowWhenItWaitsInTheScript) {
    tasync_coroutine_t *fatal = spawn([&](tasync_coroutine_t *) {
        delay(1);
        // A fatal error here while the main flow awaits something.
        EXPECT_EQ(tasync_runtime_abort(rt, TASYNC_ABORT_FATAL, nullptr), 3) << "itself, the sleeper, the main one";
        say("aborted");
    });
    tasync_coroutine_t *sleeper = spawn([&](tasync_coroutine_t *) { delay(60000); });
    void *e = nullptr;
    EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(sleeper), nullptr, nullptr, &e), -ECANCELED);
    release_error(e);
    EXPECT_TRUE(aborted(main_co())) << "the host ends the main flow at this resume (PHP bails out)";
    EXPECT_TRUE(aborted(fatal)) << "the caller too (its code is aborted; the host ends it)";
    EXPECT_TRUE(aborted(sleeper));
    EXPECT_EQ(tasync_runtime_abort(rt, TASYNC_ABORT_FATAL, nullptr), 0) << "marked already";
    EXPECT_EQ(run(), 0);
    EXPECT_FALSE(aborted(main_co())) << "the main flow's mark ends when it waits for the end";
    EXPECT_EQ(out, (std::vector<std::string>{"aborted"}));
    tasync_coroutine_release(fatal);
    tasync_coroutine_release(sleeper);
}

TEST_F(Abort, C22_TheMainFlowIsLeftAloneByAnEndAbortAndWhileItWaitsForTheEnd) {
    // TASYNC_ABORT_END from a coroutine while the main flow awaits.
    tasync_coroutine_t *ender = spawn([&](tasync_coroutine_t *) {
        delay(1);
        EXPECT_EQ(tasync_runtime_abort(rt, TASYNC_ABORT_END, nullptr), 1) << "only itself";
    });
    void *e = nullptr;
    EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(ender), nullptr, nullptr, &e), TASYNC_EFAILED);
    EXPECT_EQ(kind_of(e), TASYNC_ERROR_CANCELLATION) << "it ends cancelled";
    release_error(e);
    EXPECT_FALSE(aborted(main_co()));
    // TASYNC_ABORT_FATAL from a coroutine while the main flow is inside
    // tasync_runtime_run: the end is what it waits for.
    tasync_coroutine_t *main = main_co();
    go([&](tasync_coroutine_t *) {
        delay(1);
        EXPECT_EQ(tasync_runtime_abort(rt, TASYNC_ABORT_FATAL, nullptr), 1) << "only itself";
        EXPECT_FALSE(aborted(main));
        say("fatal while main waits for the end");
    });
    EXPECT_EQ(run(), 0);
    EXPECT_FALSE(aborted(main));
    EXPECT_EQ(out, (std::vector<std::string>{"fatal while main waits for the end"}));
    tasync_coroutine_release(ender);
}

TEST_F(Abort, C22_FinallyHandlersRegisteredBeforeTheAbortStartAborted) {
    tasync_scope_t *s = scope();
    std::vector<std::string> handlers;
    auto record = [&](const std::string &name) {
        return callback([&handlers, name, this](tasync_coroutine_t *self) {
            handlers.push_back(name + (aborted(self) ? " aborted" : " clean"));
        });
    };
    tasync_coroutine_t *old = spawn([&](tasync_coroutine_t *) { delay(60000); }, s);
    tasync_spawn_options_t o = record("coroutine's, from before");
    EXPECT_EQ(tasync_coroutine_on_finally(old, &o), 0);
    o = record("scope's, from before");
    EXPECT_EQ(tasync_scope_on_finally(s, &o), 0);
    EXPECT_EQ(tasync_yield(rt, nullptr), 0);

    EXPECT_EQ(tasync_runtime_abort(rt, TASYNC_ABORT_END, nullptr), 1);
    // What is spawned after the abort registers handlers that start clean.
    tasync_coroutine_t *late = spawn([&](tasync_coroutine_t *) { delay(5); });
    o = record("coroutine's, from after");
    EXPECT_EQ(tasync_coroutine_on_finally(late, &o), 0);
    void *e = nullptr;
    // Closed, the scope completes (and its handler starts) once its
    // coroutine ended.
    EXPECT_EQ(tasync_scope_dispose(s, TASYNC_DISPOSE_CANCEL, 0, &e), 0);
    release_error(e);
    tasync_scope_release(s);
    EXPECT_EQ(run(), 0);
    std::sort(handlers.begin(), handlers.end());
    EXPECT_EQ(handlers, (std::vector<std::string>{"coroutine's, from after clean",
                                                  "coroutine's, from before aborted",
                                                  "scope's, from before aborted"}));
    tasync_coroutine_release(old);
    tasync_coroutine_release(late);
}

TEST_F(Abort, C22_BadArgumentsAreRefused) {
    EXPECT_EQ(tasync_runtime_abort(nullptr, TASYNC_ABORT_END, nullptr), -EINVAL);
    EXPECT_EQ(tasync_runtime_abort(rt, 2, nullptr), -EINVAL);
    EXPECT_EQ(tasync_runtime_abort(rt, -1, nullptr), -EINVAL);
    EXPECT_EQ(run(), 0);
}
