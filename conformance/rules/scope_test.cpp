// Rules S1-S15: the scope tree.
#include "rules.hpp"

using namespace tasync_rules;

class Scope : public Rules {};

// ---------------------------------------------------------------------- S1

TEST_F(Scope, S1_NewScopeIsAnIndependentRoot) {
    ScopeRef root(scope());
    EXPECT_EQ(tasync_scope_parent(root), nullptr);
    EXPECT_EQ(sflags(root) & (TASYNC_SCOPE_GLOBAL | TASYNC_SCOPE_CLOSED | TASYNC_SCOPE_CANCELLED), 0u);
    bool finished = false;
    go([&](tasync_coroutine_t *) { finished = delay(5) == 0; }, root);
    // Cancelling the global scope does not reach an independent root.
    tasync_scope_cancel(tasync_scope_global(rt), nullptr);
    EXPECT_EQ(await_scope(root), 0);
    EXPECT_TRUE(finished);
    EXPECT_EQ(run(), 0);
}

TEST_F(Scope, S1_InheritMakesAChildOfTheGivenOrCurrentScope) {
    ScopeRef a(scope());
    ScopeRef b(scope(a));
    EXPECT_EQ(tasync_scope_parent(b), a.get());
    tasync_scope_t *inner_current = nullptr;
    tasync_scope_t *inner_child_parent = nullptr;
    go([&](tasync_coroutine_t *) {
        inner_current = tasync_scope_current(rt);
        ScopeRef c(scope(tasync_scope_current(rt)));  // Scope::inherit()
        inner_child_parent = tasync_scope_parent(c);
    }, b);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(inner_current, b.get());
    EXPECT_EQ(inner_child_parent, b.get());
}

TEST_F(Scope, S1_GlobalScopeIsTheMainCoroutinesScope) {
    tasync_scope_t *g = tasync_scope_global(rt);
    EXPECT_TRUE(sflags(g) & TASYNC_SCOPE_GLOBAL);
    EXPECT_EQ(tasync_scope_current(rt), g);
    EXPECT_EQ(tasync_coroutine_scope(tasync_coroutine_current(rt)), g);
    EXPECT_EQ(tasync_scope_id(g), 0u);
    tasync_coroutine_t *co = spawn([](tasync_coroutine_t *) {});
    EXPECT_EQ(tasync_coroutine_scope(co), g);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(tasync_coroutine_scope(co), nullptr) << "a completed coroutine has left its scope";
    tasync_coroutine_release(co);
}

// ---------------------------------------------------------------------- S2

// Seed 000, "Scope propagation": coroutines spawned inside a scope's
// coroutine are siblings in that scope.
TEST_F(Scope, S2_SpawnUsesTheCurrentScope_SeedSiblingTasks) {
    ScopeRef s(scope());
    std::vector<tasync_scope_t *> seen;
    go([&](tasync_coroutine_t *) {
        say("Sibling task 1");
        seen.push_back(tasync_scope_current(rt));
        go([&](tasync_coroutine_t *) {
            say("Sibling task 2");
            seen.push_back(tasync_scope_current(rt));
            go([&](tasync_coroutine_t *) {
                say("Sibling task 3");
                seen.push_back(tasync_scope_current(rt));
            });
        });
        EXPECT_EQ(tasync_scope_coroutines(s, nullptr, 0), 2u) << "the second task is a sibling";
    }, s);
    EXPECT_EQ(await_scope(s), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"Sibling task 1", "Sibling task 2", "Sibling task 3"}));
    EXPECT_EQ(seen, (std::vector<tasync_scope_t *>{s.get(), s.get(), s.get()}));
    EXPECT_EQ(tasync_scope_children(s, nullptr, 0), 0u);
    EXPECT_EQ(run(), 0);
}

// ---------------------------------------------------------------------- S3

TEST_F(Scope, S3_SpawningIntoACancelledScopeIsAnAsyncException) {
    ScopeRef s(scope());
    go([&](tasync_coroutine_t *) { say("Task 1"); }, s);
    tasync_scope_cancel(s, nullptr);
    tasync_spawn_options_t o = callback([&](tasync_coroutine_t *) { say("Task 2"); });
    o.scope = s;
    void *e = nullptr;
    tasync_coroutine_t *co = nullptr;
    EXPECT_EQ(tasync_spawn(rt, &o, &co, &e), TASYNC_ESCOPE_CLOSED);
    EXPECT_EQ(co, nullptr);
    EXPECT_EQ(kind_of(e), TASYNC_ERROR_ASYNC);
    EXPECT_EQ(message_of(e), "Coroutine scope is closed");
    release_error(e);
    o.arg_release(o.arg);
    EXPECT_EQ(run(), 0);
    EXPECT_TRUE(out.empty()) << "Task 1 was cancelled before it started, Task 2 never existed";
}

TEST_F(Scope, S3_DisposedScopesAndTheirChildrenAreClosed) {
    ScopeRef s(scope());
    ScopeRef child(scope(s));
    void *e = nullptr;
    ASSERT_EQ(tasync_scope_dispose(s, TASYNC_DISPOSE_SAFELY, 0, &e), 0);
    EXPECT_TRUE(sflags(s) & TASYNC_SCOPE_CLOSED);
    EXPECT_TRUE(sflags(child) & TASYNC_SCOPE_CLOSED);
    tasync_spawn_options_t o = callback([](tasync_coroutine_t *) {});
    o.scope = child;
    EXPECT_EQ(tasync_spawn(rt, &o, nullptr, &e), TASYNC_ESCOPE_CLOSED);
    release_error(e);
    e = nullptr;
    o.arg_release(o.arg);
    tasync_scope_t *grandchild = nullptr;
    EXPECT_EQ(tasync_scope_create(rt, child, &grandchild, &e), TASYNC_ESCOPE_CLOSED);
    EXPECT_EQ(kind_of(e), TASYNC_ERROR_ASYNC);
    release_error(e);
    EXPECT_EQ(run(), 0);
}

// ---------------------------------------------------------------------- S4

TEST_F(Scope, S4_AwaitCompletionWaitsForTheWholeSubtree) {
    ScopeRef s(scope());
    ScopeRef child(scope(s));
    go([&](tasync_coroutine_t *) { delay(5); say("own"); }, s);
    go([&](tasync_coroutine_t *) { delay(15); say("child"); }, child);
    EXPECT_EQ(tasync_scope_active_count(s), 2u);
    EXPECT_EQ(await_scope(s), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"own", "child"}));
    EXPECT_TRUE(sflags(s) & TASYNC_SCOPE_FINISHED);
    EXPECT_EQ(run(), 0);
}

TEST_F(Scope, S4_ReturnsAtOnceWhenNothingIsActive) {
    ScopeRef s(scope());
    EXPECT_EQ(await_scope(s), 0);
    EXPECT_EQ(run(), 0);
}

// Seed 000: an exception three spawns deep reaches the awaitCompletion caller.
TEST_F(Scope, S4_RethrowsTheScopesUnhandledException_SeedErrorOccurred) {
    ScopeRef s(scope());
    Error *thrown = nullptr;
    go([&](tasync_coroutine_t *) {
        go([&](tasync_coroutine_t *) {
            go([&](tasync_coroutine_t *self) {
                thrown = exception("Error occurred");
                tasync_coroutine_set_error(self, thrown);
            });
        });
    }, s);
    void *e = nullptr;
    EXPECT_EQ(await_scope(s, &e), TASYNC_EFAILED);
    EXPECT_EQ(e, thrown) << "the exception object itself";
    say(message_of(e));
    release_error(e);
    host.release(thrown);
    EXPECT_EQ(out, (std::vector<std::string>{"Error occurred"}));
    EXPECT_TRUE(sflags(s) & TASYNC_SCOPE_FAILED);
    EXPECT_TRUE(sflags(s) & TASYNC_SCOPE_CANCELLED);
    EXPECT_EQ(run(), 0) << "handled by the responsibility point: no shutdown";
}

TEST_F(Scope, S4_ThrowsAtOnceWhenTheScopeWasCancelled) {
    ScopeRef s(scope());
    bool started = false;
    go([&](tasync_coroutine_t *) { started = true; }, s);
    go([&](tasync_coroutine_t *) { started = true; });  // would run if main suspended
    tasync_scope_cancel(s, nullptr);
    void *e = nullptr;
    EXPECT_EQ(await_scope(s, &e), TASYNC_EFAILED);
    EXPECT_EQ(kind_of(e), TASYNC_ERROR_CANCELLATION);
    EXPECT_EQ(message_of(e).rfind("cancelled at test.php:", 0), 0u) << message_of(e);
    release_error(e);
    EXPECT_FALSE(started) << "it did not suspend";
    EXPECT_EQ(run(), 0);
}

TEST_F(Scope, S4_FromInsideTheScopeOrADescendantIsADeadlockError) {
    ScopeRef s(scope());
    ScopeRef child(scope(s));
    int own = 0, descendant = 0;
    std::string msg;
    go([&](tasync_coroutine_t *) {
        void *e = nullptr;
        own = tasync_scope_await_completion(rt, s, nullptr, &e);
        msg = message_of(e);
        EXPECT_EQ(kind_of(e), TASYNC_ERROR_ASYNC);
        release_error(e);
    }, s);
    go([&](tasync_coroutine_t *) {
        void *e = nullptr;
        descendant = tasync_scope_await_completion(rt, s, nullptr, &e);
        release_error(e);
    }, child);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(own, TASYNC_ESCOPE_DEADLOCK);
    EXPECT_EQ(descendant, TASYNC_ESCOPE_DEADLOCK);
    EXPECT_NE(msg.find("would cause a deadlock. Scope created at test.php:"), std::string::npos) << msg;
    // The main coroutine belongs to the global scope.
    void *e = nullptr;
    EXPECT_EQ(tasync_scope_await_completion(rt, tasync_scope_global(rt), nullptr, &e), TASYNC_ESCOPE_DEADLOCK);
    release_error(e);
}

TEST_F(Scope, S4_CancellationAwaitableEndsTheWaitButNotTheScope) {
    ScopeRef s(scope());
    bool finished = false;
    go([&](tasync_coroutine_t *) { finished = delay(30) == 0; }, s);
    void *e = nullptr;
    EXPECT_EQ(await_scope(s, &e, 5), TASYNC_EAWAIT_CANCELLED);
    EXPECT_EQ(kind_of(e), TASYNC_ERROR_AWAIT_CANCELLED);
    release_error(e);
    EXPECT_FALSE(finished);
    EXPECT_EQ(await_scope(s), 0);
    EXPECT_TRUE(finished);
    EXPECT_EQ(run(), 0);
}

// ---------------------------------------------------------------------- S5

TEST_F(Scope, S5_AwaitAfterCancellationWithoutACancelIsAnError) {
    ScopeRef s(scope());
    void *e = nullptr;
    EXPECT_EQ(tasync_scope_await_after_cancellation(rt, s, nullptr, nullptr, nullptr, &e), TASYNC_ENOT_CANCELLED);
    EXPECT_EQ(kind_of(e), TASYNC_ERROR_ASYNC);
    EXPECT_NE(message_of(e).find("only be called after the scope was cancelled"), std::string::npos);
    release_error(e);
    EXPECT_EQ(run(), 0);
}

// Seed 000: awaitCompletion throws the cancellation at once; awaitAfter-
// Cancellation then waits for the coroutine's cleanup ("Finally" first).
TEST_F(Scope, S5_WaitsForEveryCoroutineAfterCancel_SeedFinally) {
    ScopeRef s(scope());
    go([&](tasync_coroutine_t *) {
        void *e = nullptr;
        int rc = await_scope(s, &e);
        EXPECT_EQ(rc, TASYNC_EFAILED);
        EXPECT_EQ(kind_of(e), TASYNC_ERROR_CANCELLATION);
        EXPECT_EQ(tasync_scope_await_after_cancellation(rt, s, nullptr, nullptr, nullptr, nullptr), 0);
        say("Caught exception: " + message_of(e));
        release_error(e);
    });
    go([&](tasync_coroutine_t *) {
        tasync_scope_cancel(s, nullptr);
        delay(1000);  // throws the cancellation (delivered at the suspension)
        delay(10);    // the finally block: sleep(1)
        say("Finally");
    }, s);
    EXPECT_EQ(run(), 0);
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0], "Finally");
    EXPECT_EQ(out[1].rfind("Caught exception: cancelled at test.php:", 0), 0u) << out[1];
}

TEST_F(Scope, S5_IncludesZombiesAndHandsTheirErrorsToTheHandler) {
    ScopeRef s(scope());
    go([&](tasync_coroutine_t *self) {
        // Swallows the cancellation, cleans up slowly, then fails.
        delay(60000);
        delay(10);
        fail(self, "cleanup failed");
    }, s);
    go([&](tasync_coroutine_t *) {
        delay(60000);
        delay(20);
        say("zombie done");
    }, s);
    tasync_yield(rt, nullptr);
    tasync_scope_dispose(s, TASYNC_DISPOSE_SAFELY, 0, nullptr);
    EXPECT_EQ(tasync_scope_zombie_count(s), 2u);
    tasync_scope_cancel(s, nullptr);
    std::vector<std::string> errors;
    struct Ctx {
        std::vector<std::string> *errors;
    } ctx{&errors};
    int rc = tasync_scope_await_after_cancellation(
        rt, s,
        [](void *d, tasync_scope_t *, void *err) {
            static_cast<Ctx *>(d)->errors->push_back(message_of(err));
            return 0;
        },
        &ctx, nullptr, nullptr);
    EXPECT_EQ(rc, 0);
    EXPECT_EQ(errors, (std::vector<std::string>{"cleanup failed"}));
    EXPECT_EQ(out, (std::vector<std::string>{"zombie done"}));
    EXPECT_TRUE(sflags(s) & TASYNC_SCOPE_FINISHED);
    EXPECT_EQ(run(), 0) << "the error went to the handler, not to the global scope";
    EXPECT_EQ(tasync_runtime_take_error(rt), nullptr);
}

TEST_F(Scope, S5_AHandlerMayStopTheWait) {
    ScopeRef s(scope());
    go([&](tasync_coroutine_t *self) {
        delay(60000);
        fail(self, "first");
    }, s);
    go([&](tasync_coroutine_t *) {
        delay(60000);
        delay(20);
    }, s);
    tasync_yield(rt, nullptr);
    tasync_scope_cancel(s, nullptr);
    int rc = tasync_scope_await_after_cancellation(
        rt, s, [](void *, tasync_scope_t *, void *) { return -1234; }, nullptr, nullptr, nullptr);
    EXPECT_EQ(rc, -1234);
    EXPECT_FALSE(sflags(s) & TASYNC_SCOPE_FINISHED);
    EXPECT_EQ(run(), 0);
}

// ---------------------------------------------------------------------- S6

TEST_F(Scope, S6_CancelIsChildrenFirst) {
    ScopeRef root(scope());
    ScopeRef mid(scope(root));
    ScopeRef leaf(scope(mid));
    for (auto *s : {root.get(), mid.get(), leaf.get()}) {
        go([&, s](tasync_coroutine_t *) {
            if (delay(60000) == -ECANCELED) say(s == root.get() ? "root" : s == mid.get() ? "mid" : "leaf");
        }, s);
    }
    tasync_yield(rt, nullptr);
    tasync_scope_cancel(root, nullptr);
    for (auto *s : {root.get(), mid.get(), leaf.get()}) {
        EXPECT_TRUE(sflags(s) & TASYNC_SCOPE_CANCELLED);
        EXPECT_TRUE(sflags(s) & TASYNC_SCOPE_CLOSED);
    }
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"leaf", "mid", "root"}));
}

// Seed 000, "Scope cancellation": nothing of the scope ever prints.
TEST_F(Scope, S6_SeedStartEnd) {
    say("Start");
    ScopeRef s(scope());
    go([&](tasync_coroutine_t *) {
        go([&](tasync_coroutine_t *) { if (delay(1000) == 0) say("Task 1"); });
        go([&](tasync_coroutine_t *) { if (delay(2000) == 0) say("Task 2"); });
    }, s);
    tasync_scope_cancel(s, nullptr);
    say("End");
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"Start", "End"}));
}

TEST_F(Scope, S6_TheGivenErrorReachesEveryCoroutine) {
    ScopeRef s(scope());
    Error *mine = cancellation("Task was cancelled");
    std::vector<void *> got;
    for (int i = 0; i < 3; ++i) {
        go([&](tasync_coroutine_t *) {
            void *e = nullptr;
            tasync_delay(rt, 60000 * kMs, nullptr, &e);
            got.push_back(e);
            release_error(e);
        }, s);
    }
    tasync_yield(rt, nullptr);
    tasync_scope_cancel(s, mine);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(got, (std::vector<void *>{mine, mine, mine}));
    host.release(mine);
}

TEST_F(Scope, S6_CancellingAgainWithAnErrorWarnsAndIsIgnored) {
    ScopeRef s(scope());
    Error *first = cancellation("first");
    Error *second = cancellation("second");
    void *got = nullptr;
    go([&](tasync_coroutine_t *) {
        void *e = nullptr;
        tasync_delay(rt, 60000 * kMs, nullptr, &e);
        got = e;
        release_error(e);
    }, s);
    tasync_yield(rt, nullptr);
    tasync_scope_cancel(s, first);
    EXPECT_TRUE(host.warnings.empty());
    tasync_scope_cancel(s, nullptr);  // silently nothing
    EXPECT_TRUE(host.warnings.empty());
    tasync_scope_cancel(s, second);
    EXPECT_EQ(warnings_with("is already cancelled; this cancellation is ignored"), 1u);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(got, first);
    host.release(first);
    host.release(second);
}

// Seed 000, "Self-cancellation of Scope".
TEST_F(Scope, S6_ACoroutineMayCancelItsOwnScope) {
    ScopeRef s(scope());
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *) {
        Error *e = cancellation("Scope cancelled");
        tasync_scope_cancel(s, e);
        host.release(e);
        say("This executes");
    }, s);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"This executes"}));
    EXPECT_TRUE(flags(co) & TASYNC_CO_CANCELLED) << "it ends cancelled (C8)";
    void *v = nullptr, *e = nullptr;
    tasync_coroutine_outcome(co, &v, &e);
    EXPECT_EQ(message_of(e), "Scope cancelled");
    tasync_coroutine_release(co);
}

// ---------------------------------------------------------------------- S7

// Seed 000, disposeSafely: the children become zombies and finish.
TEST_F(Scope, S7_DisposeSafelyMakesZombies_Seed) {
    host.location_file = "seed.php";
    ScopeRef s(scope());
    tasync_coroutine_t *root = spawn([&](tasync_coroutine_t *) {
        go([&](tasync_coroutine_t *) { delay(10); say("Task 1"); });
        go([&](tasync_coroutine_t *) { delay(20); say("Task 2"); });
        say("Root task");
    }, s);
    EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(root), nullptr, nullptr, nullptr), 0);
    tasync_coroutine_release(root);
    void *e = nullptr;
    EXPECT_EQ(tasync_scope_dispose(s, TASYNC_DISPOSE_SAFELY, 0, &e), 0);
    for (const std::string &w : host.warnings) say("Warning: " + w);
    EXPECT_EQ(run(), 0);
    ASSERT_EQ(out.size(), 5u);
    EXPECT_EQ(out[0], "Root task");
    for (int i : {1, 2}) {
        EXPECT_EQ(out[i].rfind("Warning: Coroutine is zombie at seed.php:", 0), 0u) << out[i];
        EXPECT_NE(out[i].find(" in Scope disposed at seed.php:"), std::string::npos) << out[i];
    }
    EXPECT_EQ(out[3], "Task 1");
    EXPECT_EQ(out[4], "Task 2");
    EXPECT_TRUE(sflags(s) & TASYNC_SCOPE_DISPOSED);
    EXPECT_FALSE(sflags(s) & TASYNC_SCOPE_CANCELLED);
}

// Seed 000, dispose: the children are cancelled, with a warning each.
TEST_F(Scope, S7_DisposeCancelsEverythingAndWarns_Seed) {
    ScopeRef s(scope());
    tasync_coroutine_t *root = spawn([&](tasync_coroutine_t *) {
        go([&](tasync_coroutine_t *) { if (delay(1000) == 0) say("Task 1"); });
        go([&](tasync_coroutine_t *) { if (delay(2000) == 0) say("Task 2"); });
        say("Root task");
    }, s);
    tasync_await(rt, tasync_coroutine_awaitable(root), nullptr, nullptr, nullptr);
    tasync_coroutine_release(root);
    EXPECT_EQ(tasync_scope_dispose(s, TASYNC_DISPOSE_CANCEL, 0, nullptr), 0);
    EXPECT_EQ(warnings_with("is cancelled by the Scope disposed at test.php:"), 2u);
    EXPECT_TRUE(sflags(s) & TASYNC_SCOPE_CANCELLED);
    uint64_t start = tasync_runtime_now(rt);
    EXPECT_EQ(run(), 0);
    EXPECT_LT(tasync_runtime_now(rt) - start, 900 * kMs);
    EXPECT_EQ(out, (std::vector<std::string>{"Root task"}));
}

// Seed 000, disposeAfterTimeout (the Service class, shortened): the task is
// a zombie until the deadline, then cancelled.
TEST_F(Scope, S7_DisposeAfterTimeoutCancelsAtTheDeadline) {
    ScopeRef s(scope());
    go([&](tasync_coroutine_t *) {
        go([&](tasync_coroutine_t *) {
            delay(10);
            say("Task 2");
            if (delay(5000) == 0) say("Task 2 next line never executed");
            else say("Task 2 cancelled");
        });
        say("Task 1");
    }, s);
    delay(5);
    EXPECT_EQ(tasync_scope_dispose(s, TASYNC_DISPOSE_AFTER_TIMEOUT, 40 * kMs, nullptr), 0);
    EXPECT_EQ(warnings_with("Coroutine is zombie at"), 1u);
    delay(200);  // main stays active past the deadline
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"Task 1", "Task 2", "Task 2 cancelled"}));
    EXPECT_TRUE(sflags(s) & TASYNC_SCOPE_CANCELLED);
    EXPECT_TRUE(sflags(s) & TASYNC_SCOPE_COMPLETED);
}

TEST_F(Scope, S7_DisposeAfterTimeoutBounds) {
    ScopeRef s(scope());
    for (uint64_t bad : {uint64_t{0}, TASYNC_DISPOSE_TIMEOUT_MAX_NS, TASYNC_DISPOSE_TIMEOUT_MAX_NS + 1}) {
        void *e = nullptr;
        EXPECT_EQ(tasync_scope_dispose(s, TASYNC_DISPOSE_AFTER_TIMEOUT, bad, &e), -EINVAL) << bad;
        EXPECT_EQ(kind_of(e), TASYNC_ERROR_INVALID_ARGUMENT);
        EXPECT_EQ(message_of(e), "The timeout must be greater than 0 and less than 10 minutes");
        release_error(e);
    }
    EXPECT_FALSE(sflags(s) & TASYNC_SCOPE_CLOSED) << "a refused call changes nothing";
    void *e = nullptr;
    EXPECT_EQ(tasync_scope_dispose(s, 99, 0, &e), -EINVAL);
    release_error(e);
    EXPECT_EQ(tasync_scope_dispose(s, TASYNC_DISPOSE_AFTER_TIMEOUT, TASYNC_DISPOSE_TIMEOUT_MAX_NS - 1, nullptr), 0);
    EXPECT_EQ(run(), 0);
}

TEST_F(Scope, S7_ChildScopesAreDisposedFirstWithTheSameStrategy) {
    ScopeRef parent(scope());
    ScopeRef child(scope(parent));
    host.location_line = 100;
    go([&](tasync_coroutine_t *) { delay(10); }, parent);  // spawned at test.php:101
    go([&](tasync_coroutine_t *) { delay(10); }, child);   // spawned at test.php:102
    tasync_yield(rt, nullptr);
    tasync_scope_dispose(parent, TASYNC_DISPOSE_SAFELY, 0, nullptr);
    ASSERT_EQ(host.warnings.size(), 2u);
    EXPECT_EQ(host.warnings[0].rfind("Coroutine is zombie at test.php:102", 0), 0u) << host.warnings[0];
    EXPECT_EQ(host.warnings[1].rfind("Coroutine is zombie at test.php:101", 0), 0u) << host.warnings[1];
    EXPECT_TRUE(sflags(child) & TASYNC_SCOPE_DISPOSED);
    EXPECT_EQ(tasync_scope_zombie_count(parent), 2u);
    EXPECT_EQ(tasync_scope_zombie_count(child), 1u);
    EXPECT_EQ(run(), 0);
}

TEST_F(Scope, S7_RepeatedDisposeIsANoOp) {
    ScopeRef s(scope());
    go([&](tasync_coroutine_t *) { delay(10); }, s);
    tasync_yield(rt, nullptr);
    EXPECT_EQ(tasync_scope_dispose(s, TASYNC_DISPOSE_SAFELY, 0, nullptr), 0);
    EXPECT_EQ(tasync_scope_dispose(s, TASYNC_DISPOSE_SAFELY, 0, nullptr), 0);
    EXPECT_EQ(tasync_scope_dispose(s, TASYNC_DISPOSE_CANCEL, 0, nullptr), 0);
    EXPECT_EQ(host.warnings.size(), 1u);
    EXPECT_FALSE(sflags(s) & TASYNC_SCOPE_CANCELLED);
    EXPECT_EQ(run(), 0);
}

// ---------------------------------------------------------------------- S8

TEST_F(Scope, S8_ReleasedScopeDisposesSafelyByDefault) {
    tasync_scope_t *s = scope();
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *) { say(delay(10) == 0 ? "finished" : "cancelled"); }, s);
    tasync_yield(rt, nullptr);
    tasync_scope_dispose(s, TASYNC_DISPOSE_ON_RELEASE, 0, nullptr);  // the host object's destructor
    tasync_scope_release(s);
    EXPECT_TRUE(flags(co) & TASYNC_CO_ZOMBIE);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"finished"}));
    tasync_coroutine_release(co);
}

TEST_F(Scope, S8_NotSafelyCancelsAndIsInherited) {
    ScopeRef s(scope());
    tasync_scope_set_not_safely(s);
    tasync_scope_t *child = scope(s);
    EXPECT_TRUE(sflags(child) & TASYNC_SCOPE_NOT_SAFELY);
    go([&](tasync_coroutine_t *) { say(delay(1000) == 0 ? "finished" : "cancelled"); }, child);
    tasync_yield(rt, nullptr);
    tasync_scope_dispose(child, TASYNC_DISPOSE_ON_RELEASE, 0, nullptr);
    tasync_scope_release(child);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"cancelled"}));
}

// ---------------------------------------------------------------------- S9

TEST_F(Scope, S9_ZombiesStayInTheScopeButAreNotActive) {
    ScopeRef s(scope());
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *) { delay(10); }, s);
    tasync_yield(rt, nullptr);
    tasync_scope_dispose(s, TASYNC_DISPOSE_SAFELY, 0, nullptr);
    EXPECT_TRUE(flags(co) & TASYNC_CO_ZOMBIE);
    EXPECT_EQ(tasync_scope_active_count(s), 0u);
    EXPECT_EQ(tasync_scope_zombie_count(s), 1u);
    tasync_coroutine_t *listed = nullptr;
    EXPECT_EQ(tasync_scope_coroutines(s, &listed, 1), 1u);
    EXPECT_EQ(listed, co);
    EXPECT_EQ(await_scope(s), 0) << "zombies do not block awaitCompletion";
    EXPECT_FALSE(flags(co) & TASYNC_CO_COMPLETED);
    EXPECT_EQ(run(), 0);
    EXPECT_TRUE(flags(co) & TASYNC_CO_COMPLETED);
    EXPECT_FALSE(flags(co) & TASYNC_CO_CANCELLED) << "it finished within the zombie timeout";
    tasync_coroutine_release(co);
}

TEST_F(Scope, S9_AtTheEndZombiesGetTheTimeoutThenAreCancelled) {
    tasync_runtime_set_zombie_timeout(rt, 30 * kMs);
    ScopeRef s(scope());
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *) {
        say(delay(60000) == -ECANCELED ? "cancelled" : "finished");
    }, s);
    tasync_yield(rt, nullptr);
    tasync_scope_dispose(s, TASYNC_DISPOSE_SAFELY, 0, nullptr);
    uint64_t start = tasync_runtime_now(rt);
    EXPECT_EQ(run(), 0);
    uint64_t took = tasync_runtime_now(rt) - start;
    EXPECT_GE(took, 30 * kMs) << "the zombie got its grace period";
    EXPECT_LT(took, 30000 * kMs);
    EXPECT_EQ(out, (std::vector<std::string>{"cancelled"}));
    EXPECT_TRUE(flags(co) & TASYNC_CO_CANCELLED);
    tasync_coroutine_release(co);
}

TEST_F(Scope, S9_ZombiesDoNotKeepTheProgramAliveWhileItRuns) {
    // While something active remains, zombies are not cancelled.
    tasync_runtime_set_zombie_timeout(rt, 10 * kMs);
    ScopeRef s(scope());
    go([&](tasync_coroutine_t *) { say(delay(40) == 0 ? "zombie finished" : "zombie cancelled"); }, s);
    tasync_yield(rt, nullptr);
    tasync_scope_dispose(s, TASYNC_DISPOSE_SAFELY, 0, nullptr);
    go([&](tasync_coroutine_t *) { delay(60); say("active finished"); });
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"zombie finished", "active finished"}));
}

// ---------------------------------------------------------------------- S10

TEST_F(Scope, S10_AnAwaitedCoroutinesErrorGoesToTheAwaiterOnly) {
    ScopeRef s(scope());
    bool sibling_finished = false;
    go([&](tasync_coroutine_t *) { sibling_finished = delay(10) == 0; }, s);
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *self) { fail(self, "boom"); }, s);
    void *e = nullptr;
    EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(co), nullptr, nullptr, &e), TASYNC_EFAILED);
    EXPECT_EQ(message_of(e), "boom");
    release_error(e);
    EXPECT_FALSE(sflags(s) & TASYNC_SCOPE_CANCELLED);
    EXPECT_EQ(await_scope(s), 0);
    EXPECT_TRUE(sibling_finished);
    EXPECT_EQ(run(), 0);
    tasync_coroutine_release(co);
}

// Seed 003, "Error Handling in Scope" (with the handler arguments of docs/rules.md, S11).
TEST_F(Scope, S10_TheExceptionHandlerMaySuppress_Seed) {
    ScopeRef s(scope());
    tasync_coroutine_t *failing = nullptr;
    tasync_coroutine_t *seen_co = nullptr;
    tasync_scope_t *seen_scope = nullptr;
    on_error(s, [&](tasync_scope_t *sc, tasync_coroutine_t *co, void *e, void **) {
        seen_scope = sc;
        seen_co = co;
        say("Error in scope: " + message_of(e));
        return 0;
    });
    // As in the seed, nobody keeps a handle on the failing coroutine: its
    // error goes to the scope at once (S10).
    go([&](tasync_coroutine_t *self) {
        failing = self;
        fail(self, "Something broke!");
    }, s);
    go([&](tasync_coroutine_t *) { say("I'm working fine"); }, s);
    EXPECT_EQ(await_scope(s), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"Error in scope: Something broke!", "I'm working fine"}));
    EXPECT_EQ(seen_scope, s.get());
    EXPECT_EQ(seen_co, failing);
    EXPECT_FALSE(sflags(s) & TASYNC_SCOPE_CANCELLED);
    EXPECT_EQ(run(), 0);
}

TEST_F(Scope, S10_AHandlerThatThrowsPassesTheNewErrorToTheParent) {
    ScopeRef parent(scope());
    ScopeRef child(scope(parent));
    Error *raised = nullptr;
    void *parent_got = nullptr;
    on_error(child, [&](tasync_scope_t *, tasync_coroutine_t *, void *e, void **out_error) {
        say("child handler: " + message_of(e));
        raised = exception("rethrown by the handler");
        *out_error = raised;  // the handler's "throw"
        return 1;
    });
    on_error(parent, [&](tasync_scope_t *, tasync_coroutine_t *, void *e, void **) {
        parent_got = e;
        say("parent handler: " + message_of(e));
        return 0;
    });
    go([&](tasync_coroutine_t *self) { fail(self, "original"); }, child);
    EXPECT_EQ(await_scope(parent), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"child handler: original", "parent handler: rethrown by the handler"}));
    EXPECT_EQ(parent_got, raised);
    EXPECT_FALSE(sflags(child) & TASYNC_SCOPE_CANCELLED);
    EXPECT_EQ(run(), 0);
}

TEST_F(Scope, S10_TheParentsChildScopeHandlerTakesChildErrors) {
    ScopeRef service(scope());
    on_error(service, [&](tasync_scope_t *sc, tasync_coroutine_t *, void *e, void **) {
        say("Occurred an exception: " + message_of(e));
        EXPECT_NE(sc, nullptr);
        return 0;
    }, true);
    bool handled_request_2 = false;
    ScopeRef req1(scope(service));
    ScopeRef req2(scope(service));
    go([&](tasync_coroutine_t *self) { fail(self, "request 1 failed"); }, req1);
    go([&](tasync_coroutine_t *) { handled_request_2 = delay(10) == 0; }, req2);
    go([&](tasync_coroutine_t *) { delay(20); say("service still running"); }, service);
    EXPECT_EQ(await_scope(service), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"Occurred an exception: request 1 failed", "service still running"}));
    EXPECT_TRUE(handled_request_2);
    EXPECT_FALSE(sflags(service) & TASYNC_SCOPE_CANCELLED);
    EXPECT_EQ(run(), 0);
}

TEST_F(Scope, S10_WithoutHandlersTheScopeIsCancelledAndItsWaitersGetTheError_SeedSameException) {
    ScopeRef s(scope());
    Error *thrown = nullptr;
    bool sibling_cancelled = false;
    go([&](tasync_coroutine_t *) { sibling_cancelled = delay(60000) == -ECANCELED; }, s);
    go([&](tasync_coroutine_t *self) {
        thrown = exception("Task 1");
        tasync_coroutine_set_error(self, thrown);
    }, s);
    void *e1 = nullptr, *e2 = nullptr;
    ScopeRef s2(scope());
    go([&](tasync_coroutine_t *) {
        if (await_scope(s, &e1) == TASYNC_EFAILED) say("Caught exception1: " + message_of(e1));
    }, s2);
    go([&](tasync_coroutine_t *) {
        if (await_scope(s, &e2) == TASYNC_EFAILED) say("Caught exception2: " + message_of(e2));
    }, s2);
    EXPECT_EQ(await_scope(s2), 0);
    say(e1 == e2 ? "The same exception" : "Different exceptions");
    EXPECT_EQ(e1, thrown);
    release_error(e1);
    release_error(e2);
    host.release(thrown);
    EXPECT_EQ(out, (std::vector<std::string>{"Caught exception1: Task 1", "Caught exception2: Task 1",
                                             "The same exception"}));
    EXPECT_TRUE(sibling_cancelled);
    EXPECT_EQ(run(), 0);
}

TEST_F(Scope, S10_WithNobodyWaitingTheErrorWaitsForTheOwner) {
    ScopeRef parent(scope());
    tasync_scope_t *child = scope(parent);
    go([&](tasync_coroutine_t *self) { fail(self, "deep"); }, child);
    bool parent_task_cancelled = false;
    go([&](tasync_coroutine_t *) { parent_task_cancelled = delay(60000) == -ECANCELED; }, parent);
    tasync_yield(rt, nullptr);
    EXPECT_TRUE(sflags(child) & TASYNC_SCOPE_FAILED);
    EXPECT_TRUE(sflags(child) & TASYNC_SCOPE_CANCELLED);
    EXPECT_FALSE(sflags(parent) & TASYNC_SCOPE_CANCELLED) << "the child's owner may still await it";
    void *got = nullptr;
    go([&](tasync_coroutine_t *) {
        void *e = nullptr;
        if (await_scope(parent, &e) == TASYNC_EFAILED) got = e;
        else release_error(e);
    });
    tasync_yield(rt, nullptr);
    // The owner lets go of the child without awaiting it: the error moves
    // to the parent, whose responsibility point receives it.
    tasync_scope_dispose(child, TASYNC_DISPOSE_ON_RELEASE, 0, nullptr);
    tasync_scope_release(child);
    EXPECT_TRUE(sflags(parent) & TASYNC_SCOPE_CANCELLED);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(message_of(got), "deep");
    release_error(got);
    EXPECT_TRUE(parent_task_cancelled);
}

TEST_F(Scope, S10_ALaterAwaitCompletionTakesThePendingError) {
    ScopeRef s(scope());
    Error *thrown = nullptr;
    go([&](tasync_coroutine_t *self) {
        thrown = exception("Task 1");
        tasync_coroutine_set_error(self, thrown);
    }, s);
    tasync_yield(rt, nullptr);
    void *e = nullptr;
    EXPECT_EQ(await_scope(s, &e), TASYNC_EFAILED);
    EXPECT_EQ(e, thrown);
    release_error(e);
    host.release(thrown);
    tasync_scope_dispose(s, TASYNC_DISPOSE_ON_RELEASE, 0, nullptr);
    EXPECT_EQ(run(), 0) << "received: it does not move up when the scope is dropped";
    EXPECT_EQ(tasync_runtime_take_error(rt), nullptr);
}

TEST_F(Scope, S10_AnUnreceivedErrorMovesUpWhenTheScopeIsDropped) {
    tasync_scope_t *s = scope();
    go([&](tasync_coroutine_t *self) { fail(self, "never looked at"); }, s);
    bool other_cancelled = false;
    go([&](tasync_coroutine_t *) { other_cancelled = delay(60000) == -ECANCELED; });
    tasync_yield(rt, nullptr);
    EXPECT_EQ(tasync_runtime_shutdown_phase(rt), TASYNC_SHUTDOWN_NONE);
    tasync_scope_dispose(s, TASYNC_DISPOSE_ON_RELEASE, 0, nullptr);
    tasync_scope_release(s);
    EXPECT_EQ(tasync_runtime_shutdown_phase(rt), TASYNC_SHUTDOWN_GRACEFUL);
    EXPECT_EQ(run(), TASYNC_EFAILED);
    EXPECT_TRUE(other_cancelled);
    void *e = tasync_runtime_take_error(rt);
    EXPECT_EQ(message_of(e), "never looked at");
    release_error(e);
}

TEST_F(Scope, S10_AtTheGlobalScopeItStartsGracefulShutdown) {
    Error *thrown = exception("nobody handles me");
    bool other_cancelled = false;
    go([&](tasync_coroutine_t *) { other_cancelled = delay(60000) == -ECANCELED; });
    go([&](tasync_coroutine_t *self) { tasync_coroutine_set_error(self, thrown); });
    EXPECT_EQ(run(), TASYNC_EFAILED);
    EXPECT_TRUE(other_cancelled);
    EXPECT_EQ(tasync_runtime_shutdown_phase(rt), TASYNC_SHUTDOWN_GRACEFUL);
    void *e = tasync_runtime_take_error(rt);
    EXPECT_EQ(e, thrown) << "the host reports this error when the program ends";
    release_error(e);
    EXPECT_EQ(tasync_runtime_take_error(rt), nullptr);
    host.release(thrown);
}

TEST_F(Scope, S10_CancellationsDoNotReachTheScope) {
    ScopeRef s(scope());
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *) { delay(60000); }, s);
    tasync_yield(rt, nullptr);
    tasync_coroutine_cancel(co, nullptr);
    EXPECT_EQ(await_scope(s), 0);
    EXPECT_FALSE(sflags(s) & TASYNC_SCOPE_CANCELLED);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(tasync_runtime_take_error(rt), nullptr);
    tasync_coroutine_release(co);
}

TEST_F(Scope, S10_HandlersMaySuspend) {
    ScopeRef s(scope());
    on_error(s, [&](tasync_scope_t *, tasync_coroutine_t *, void *e, void **) {
        delay(5);
        say("handled after a delay: " + message_of(e));
        return 0;
    });
    go([&](tasync_coroutine_t *self) { fail(self, "x"); }, s);
    EXPECT_EQ(await_scope(s), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"handled after a delay: x"}));
    EXPECT_EQ(run(), 0);
}

// ---------------------------------------------------------------------- S11

// Future semantics: while a handle to the coroutine is alive its error
// stays on it for later awaiters; without an exception handler to hear of
// it, nothing reaches the scope.
TEST_F(Scope, S10_ErrorStaysOnTheCoroutineWhileAHandleIsAlive) {
    ScopeRef s(scope());
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *self) { fail(self, "kept"); }, s);
    tasync_yield(rt, nullptr);
    EXPECT_TRUE(flags(co) & TASYNC_CO_COMPLETED);
    EXPECT_EQ(await_scope(s), 0) << "the held error is not the scope's";
    for (int i = 0; i < 2; ++i) {
        void *e = nullptr;
        EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(co), nullptr, nullptr, &e), TASYNC_EFAILED);
        EXPECT_EQ(message_of(e), "kept");
        release_error(e);
    }
    tasync_coroutine_release(co);
    EXPECT_EQ(run(), 0);
    EXPECT_FALSE(sflags(s) & TASYNC_SCOPE_CANCELLED) << "awaited: observed, never escalated";
    EXPECT_EQ(tasync_runtime_take_error(rt), nullptr);
}

// A supervisor is no supervisor if it learns at the end: a scope's exception
// handler (or its parent's child-scope handler) hears of a failure when it
// happens, even while a handle is alive; the error stays on the coroutine
// for a later awaiter, and does not escalate again when the last handle
// goes.
TEST_F(Scope, S10_AHandlerHearsOfAFailureWhileAHandleIsAlive) {
    ScopeRef s(scope());
    void *heard = nullptr;
    on_error(s, [&](tasync_scope_t *, tasync_coroutine_t *, void *e, void **) {
        say("handler: " + message_of(e));
        heard = e;
        return 0;
    });
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *self) { fail(self, "heard at once"); }, s);
    tasync_yield(rt, nullptr);
    EXPECT_EQ(out, (std::vector<std::string>{"handler: heard at once"}));
    void *e = nullptr;
    EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(co), nullptr, nullptr, &e), TASYNC_EFAILED);
    EXPECT_EQ(e, heard) << "the same error object";
    release_error(e);
    ScopeRef parent(scope());
    on_error(parent, [&](tasync_scope_t *, tasync_coroutine_t *, void *e2, void **) {
        say("child-scope handler: " + message_of(e2));
        return 0;
    }, true);
    ScopeRef child(scope(parent));
    tasync_coroutine_t *other = spawn([&](tasync_coroutine_t *self) { fail(self, "from a child scope"); }, child);
    tasync_yield(rt, nullptr);
    tasync_coroutine_release(co);
    tasync_coroutine_release(other);
    tasync_yield(rt, nullptr);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"handler: heard at once", "child-scope handler: from a child scope"}))
        << "no second report when the handles go";
    EXPECT_FALSE(sflags(s) & TASYNC_SCOPE_CANCELLED);
}

// An error observed before the coroutine failed (tasync_awaitable_observe:
// PHP's combinators, which answer for what an iterable handed them before
// it threw) never escalates, whether or not a handle is alive.
TEST_F(Scope, S10_AnErrorObservedBeforeItHappensDoesNotEscalate) {
    ScopeRef s(scope());
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *self) {
        delay(1);
        fail(self, "answered for");
    }, s);
    tasync_awaitable_observe(tasync_coroutine_awaitable(co));
    tasync_coroutine_release(co);
    EXPECT_EQ(run(), 0);
    EXPECT_FALSE(sflags(s) & TASYNC_SCOPE_CANCELLED);
    EXPECT_EQ(tasync_runtime_take_error(rt), nullptr);
}

// The last handle released without the error having been awaited: it
// escalates then (S10), on the failed coroutine, which the release only
// queues (the release may happen where no handler can run).
TEST_F(Scope, S10_AnUnobservedErrorEscalatesWhenTheLastHandleGoes) {
    ScopeRef s(scope());
    tasync_coroutine_t *failing = spawn([&](tasync_coroutine_t *self) { fail(self, "dropped"); }, s);
    tasync_coroutine_t *second = failing;
    tasync_coroutine_retain(second);  // two handles
    tasync_yield(rt, nullptr);
    tasync_coroutine_release(failing);
    tasync_yield(rt, nullptr);
    EXPECT_FALSE(sflags(s) & TASYNC_SCOPE_FAILED) << "a handle is still alive";
    tasync_coroutine_release(second);
    EXPECT_FALSE(sflags(s) & TASYNC_SCOPE_FAILED) << "the release only queues the escalation";
    tasync_yield(rt, nullptr);
    tasync_yield(rt, nullptr);
    EXPECT_TRUE(sflags(s) & TASYNC_SCOPE_FAILED);
    void *e = nullptr;
    EXPECT_EQ(tasync_scope_await_completion(rt, s, nullptr, &e), TASYNC_EFAILED);
    EXPECT_EQ(message_of(e), "dropped");
    release_error(e);
    EXPECT_EQ(run(), 0);
}

// No handler: the escalation that the last release starts goes on as S10
// says, up to the global scope (graceful shutdown, reported at the end).
TEST_F(Scope, S10_AHeldErrorThatReachesTheGlobalScopeEndsTheProgram) {
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *self) { fail(self, "never awaited"); });
    go([&](tasync_coroutine_t *) { say(delay(60000) == -ECANCELED ? "other cancelled" : "?"); });
    tasync_yield(rt, nullptr);
    EXPECT_EQ(tasync_runtime_shutdown_phase(rt), TASYNC_SHUTDOWN_NONE);
    tasync_coroutine_release(co);
    EXPECT_EQ(run(), TASYNC_EFAILED);
    EXPECT_EQ(out, (std::vector<std::string>{"other cancelled"}));
    void *e = tasync_runtime_take_error(rt);
    EXPECT_EQ(message_of(e), "never awaited");
    release_error(e);
}

// Handles still alive when nothing else remains: the end of the program
// releases every held error (nobody can await it any more).
TEST_F(Scope, S10_HeldErrorsEscalateAtTheEndOfTheProgram) {
    ScopeRef s(scope());
    tasync_coroutine_t *co = spawn([&](tasync_coroutine_t *self) { fail(self, "kept to the end"); }, s);
    tasync_coroutine_t *plain = spawn([&](tasync_coroutine_t *self) { fail(self, "global"); });
    tasync_yield(rt, nullptr);
    EXPECT_FALSE(sflags(s) & TASYNC_SCOPE_FAILED) << "held while the handles live";
    EXPECT_EQ(tasync_runtime_shutdown_phase(rt), TASYNC_SHUTDOWN_NONE);
    EXPECT_EQ(run(), TASYNC_EFAILED);
    EXPECT_TRUE(sflags(s) & TASYNC_SCOPE_FAILED) << "released at the end";
    void *e = tasync_runtime_take_error(rt);
    EXPECT_EQ(message_of(e), "global");
    release_error(e);
    // Still there for a late awaiter.
    void *again = nullptr;
    EXPECT_EQ(tasync_await(rt, tasync_coroutine_awaitable(co), nullptr, nullptr, &again), TASYNC_EFAILED);
    EXPECT_EQ(message_of(again), "kept to the end");
    release_error(again);
    tasync_coroutine_release(co);
    tasync_coroutine_release(plain);
}

// tasync_await_any observes what it returns, not the others: an error of
// one it did not return (though it failed while await_any still waited)
// stays held and escalates if never awaited.
TEST_F(Scope, S10_AwaitAnyObservesWhatItReturns) {
    ScopeRef s(scope());
    on_error(s, [&](tasync_scope_t *, tasync_coroutine_t *, void *e, void **) {
        say("escalated: " + message_of(e));
        return 0;
    });
    tasync_coroutine_t *first = spawn([&](tasync_coroutine_t *self) { fail(self, "first"); }, s);
    tasync_coroutine_t *later = spawn([&](tasync_coroutine_t *self) { fail(self, "later"); }, s);
    tasync_awaitable_t *both[2] = {tasync_coroutine_awaitable(first), tasync_coroutine_awaitable(later)};
    EXPECT_EQ(tasync_await_any(rt, both, 2, nullptr, nullptr), 0);
    EXPECT_TRUE(flags(later) & TASYNC_CO_COMPLETED) << "failed before await_any returned";
    delay(10);
    tasync_coroutine_release(first);
    tasync_coroutine_release(later);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"escalated: later"}));
}

// Rule S5 with rule S10: without an error handler, awaitAfterCancellation()
// is a responsibility point like awaitCompletion(): it ends with the error.
TEST_F(Scope, S5_WithoutAHandlerAwaitAfterCancellationReceivesTheError) {
    ScopeRef s(scope());
    go([&](tasync_coroutine_t *self) {
        delay(60000);  // cancelled: swallows it and fails while cleaning up
        fail(self, "cleanup failed");
    }, s);
    tasync_yield(rt, nullptr);
    tasync_scope_cancel(s, nullptr);
    void *e = nullptr;
    EXPECT_EQ(tasync_scope_await_after_cancellation(rt, s, nullptr, nullptr, nullptr, &e), TASYNC_EFAILED);
    EXPECT_EQ(message_of(e), "cleanup failed");
    release_error(e);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(tasync_runtime_take_error(rt), nullptr) << "received: it does not escalate";
}

// A scope's finally handlers run in the scope, before those waiting for it
// resume; their errors go to the scope's exception handler.
TEST_F(Scope, S12_FinallyHandlersRunBeforeTheScopesWaitersResume) {
    ScopeRef s(scope());
    on_error(s, [&](tasync_scope_t *, tasync_coroutine_t *, void *e, void **) {
        say("scope handler: " + message_of(e));
        return 0;
    });
    go([&](tasync_coroutine_t *) { delay(60000); }, s);
    tasync_spawn_options_t cb = callback([&](tasync_coroutine_t *self) {
        // In the global scope (it may spawn though s is closed), charged to s.
        EXPECT_EQ(tasync_coroutine_scope(self), tasync_scope_global(rt));
        delay(2);
        say("scope cleanup ends");
        fail(self, "scope cleanup broke");
    });
    ASSERT_EQ(tasync_scope_on_finally(s, &cb), 0);
    tasync_yield(rt, nullptr);
    tasync_scope_cancel(s, nullptr);
    EXPECT_EQ(tasync_scope_await_after_cancellation(rt, s, nullptr, nullptr, nullptr, nullptr), 0);
    say("waiter resumed");
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"scope cleanup ends", "scope handler: scope cleanup broke",
                                             "waiter resumed"}));
}

TEST_F(Scope, S11_HandlersCannotBeSetOnTheGlobalScope) {
    int released = 0;
    auto rel = [](void *d) { ++*static_cast<int *>(d); };
    auto fn = [](void *, tasync_scope_t *, tasync_coroutine_t *, void *, void **) { return 0; };
    EXPECT_EQ(tasync_scope_set_exception_handler(tasync_scope_global(rt), fn, &released, rel), TASYNC_EBAD_STATE);
    EXPECT_EQ(tasync_scope_set_child_exception_handler(tasync_scope_global(rt), fn, &released, rel),
              TASYNC_EBAD_STATE);
    EXPECT_EQ(released, 2) << "refused handler data is released at once";
    EXPECT_EQ(run(), 0);
}

TEST_F(Scope, S11_ReplacingAHandlerReleasesTheOldOne) {
    int released = 0;
    auto rel = [](void *d) { ++*static_cast<int *>(d); };
    auto fn = [](void *, tasync_scope_t *, tasync_coroutine_t *, void *, void **) { return 0; };
    {
        ScopeRef s(scope());
        EXPECT_EQ(tasync_scope_set_exception_handler(s, fn, &released, rel), 0);
        EXPECT_EQ(tasync_scope_set_exception_handler(s, fn, &released, rel), 0);
        EXPECT_EQ(released, 1);
        EXPECT_EQ(tasync_scope_set_exception_handler(s, nullptr, nullptr, nullptr), 0);
        EXPECT_EQ(released, 2);
        EXPECT_EQ(tasync_scope_set_child_exception_handler(s, fn, &released, rel), 0);
    }
    EXPECT_EQ(released, 3) << "freed with the scope";
    EXPECT_EQ(run(), 0);
}

// ---------------------------------------------------------------------- S12

TEST_F(Scope, S12_OnFinallyRunsWhenTheScopeCompletes) {
    ScopeRef s(scope());
    go([&](tasync_coroutine_t *) { delay(5); say("task"); }, s);
    tasync_coroutine_t *cb_self = nullptr;
    tasync_spawn_options_t cb = callback([&](tasync_coroutine_t *self) {
        cb_self = self;
        say("Scope completed");
    });
    EXPECT_EQ(tasync_scope_on_finally(s, &cb), 0);
    EXPECT_EQ(await_scope(s), 0);
    tasync_yield(rt, nullptr);
    EXPECT_EQ(out, (std::vector<std::string>{"task"})) << "finished but not closed: not completed";
    tasync_scope_dispose(s, TASYNC_DISPOSE_SAFELY, 0, nullptr);
    EXPECT_TRUE(sflags(s) & TASYNC_SCOPE_COMPLETED);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"task", "Scope completed"}));
    EXPECT_NE(cb_self, nullptr) << "in its own coroutine";
}

TEST_F(Scope, S12_OnFinallyAfterAFailureAndAfterCompletion) {
    ScopeRef s(scope());
    go([&](tasync_coroutine_t *self) { fail(self, "Task 1"); }, s);
    tasync_spawn_options_t cb = callback([&](tasync_coroutine_t *) { say("finally 1"); });
    tasync_scope_on_finally(s, &cb);
    void *e = nullptr;
    EXPECT_EQ(await_scope(s, &e), TASYNC_EFAILED);
    release_error(e);
    tasync_yield(rt, nullptr);
    EXPECT_EQ(out, (std::vector<std::string>{"finally 1"}));
    // Registering on a completed scope runs too.
    tasync_spawn_options_t cb2 = callback([&](tasync_coroutine_t *) { say("finally 2"); });
    EXPECT_EQ(tasync_scope_on_finally(s, &cb2), 0);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"finally 1", "finally 2"}));
}

TEST_F(Scope, S12_TheGlobalScopeCompletesAtTheEndOfTheProgram) {
    go([&](tasync_coroutine_t *) { delay(5); say("task"); });
    tasync_spawn_options_t cb = callback([&](tasync_coroutine_t *) { say("global finally"); });
    tasync_scope_on_finally(tasync_scope_global(rt), &cb);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"task", "global finally"}));
}

TEST_F(Scope, S12_UnrunCallbacksAreReleasedWithTheRuntime) {
    ScopeRef s(scope());
    int released = 0;
    tasync_spawn_options_t cb{};
    cb.size = sizeof(cb);
    cb.entry = [](tasync_coroutine_t *, void *) {};
    cb.arg = &released;
    cb.arg_release = [](void *d) { ++*static_cast<int *>(d); };
    tasync_scope_on_finally(s, &cb);
    EXPECT_EQ(run(), 0);
    tasync_runtime_destroy(rt);
    rt = nullptr;
    EXPECT_EQ(released, 1);
}

// ---------------------------------------------------------------------- S13

// Seed 000, "Scope Inspection Tools".
TEST_F(Scope, S13_Enumeration_Seed) {
    ScopeRef s(scope());
    go([&](tasync_coroutine_t *) { say("Task 1"); }, s);
    go([&](tasync_coroutine_t *) { say("Task 2"); }, s);
    say("Number of coroutines in scope: " + std::to_string(tasync_scope_coroutines(s, nullptr, 0)));
    ScopeRef child(scope(s));
    say("Number of child scopes: " + std::to_string(tasync_scope_children(s, nullptr, 0)));
    tasync_scope_t *kids[2] = {nullptr, nullptr};
    EXPECT_EQ(tasync_scope_children(s, kids, 2), 1u);
    EXPECT_EQ(kids[0], child.get());
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"Number of coroutines in scope: 2", "Number of child scopes: 1",
                                             "Task 1", "Task 2"}));
}

TEST_F(Scope, S13_StateFlags) {
    ScopeRef s(scope());
    EXPECT_TRUE(sflags(s) & TASYNC_SCOPE_FINISHED);
    go([&](tasync_coroutine_t *) { delay(5); }, s);
    EXPECT_FALSE(sflags(s) & TASYNC_SCOPE_FINISHED);
    EXPECT_FALSE(sflags(s) & TASYNC_SCOPE_CLOSED);
    tasync_scope_cancel(s, nullptr);
    EXPECT_TRUE(sflags(s) & TASYNC_SCOPE_CLOSED);
    EXPECT_TRUE(sflags(s) & TASYNC_SCOPE_CANCELLED);
    EXPECT_EQ(run(), 0);
    EXPECT_TRUE(sflags(s) & TASYNC_SCOPE_FINISHED);
    EXPECT_TRUE(sflags(s) & TASYNC_SCOPE_COMPLETED);
}

// ---------------------------------------------------------------------- S15

TEST_F(Scope, S15_ARootScopeDroppedWithUnawaitedWorkWarns) {
    host.location_line = 40;
    tasync_scope_t *s = scope();  // created at test.php:41
    go([&](tasync_coroutine_t *) { delay(5); }, s);
    tasync_scope_dispose(s, TASYNC_DISPOSE_ON_RELEASE, 0, nullptr);
    tasync_scope_release(s);
    EXPECT_TRUE(warned("Scope created at test.php:41 was destroyed with 1 active coroutine(s) that were never "
                       "awaited or disposed"));
    EXPECT_EQ(run(), 0);
}

TEST_F(Scope, S15_WarningsNameRealLocationsOnly) {
    // A host with warning_at (ABI 1.2) learns where each warning belongs.
    struct Located {
        std::string message;
        std::string where;
    };
    static std::vector<Located> got;
    got.clear();
    tasync_runtime_destroy(rt);
    rt = nullptr;
    host.table.warning_at = [](void *, const char *msg, const tasync_location_t *where) {
        got.push_back({msg, where->file != nullptr ? std::string(where->file) + ":" + std::to_string(where->line)
                                                   : std::string("none")});
    };
    create(nullptr);
    host.location_line = 40;
    tasync_scope_t *s = scope();  // created at test.php:41
    go([&](tasync_coroutine_t *) { delay(5); }, s);  // spawned at test.php:42
    // Released by the host outside any user code: no current location.
    host.provide_locations = false;
    tasync_scope_dispose(s, TASYNC_DISPOSE_ON_RELEASE, 0, nullptr);
    tasync_scope_release(s);
    host.provide_locations = true;
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(got[0].message,
              "Scope created at test.php:41 was destroyed with 1 active coroutine(s) that were never awaited or disposed");
    EXPECT_EQ(got[0].where, "test.php:41") << "reported where the scope was created";
    EXPECT_EQ(got[1].message, "Coroutine is zombie at test.php:42 in Scope created at test.php:41, disposed when released");
    EXPECT_EQ(got[1].where, "test.php:41");
    // Disposed in user code: reported there.
    tasync_scope_t *t = scope();  // test.php:43
    go([&](tasync_coroutine_t *) { delay(5); }, t);  // test.php:44
    tasync_scope_dispose(t, TASYNC_DISPOSE_SAFELY, 0, nullptr);
    tasync_scope_release(t);
    ASSERT_EQ(got.size(), 3u);
    EXPECT_EQ(got[2].message.rfind("Coroutine is zombie at test.php:44 in Scope disposed at test.php:", 0), 0u)
        << got[2].message;
    EXPECT_NE(got[2].where, "none");
    // Without any location at all, none is named.
    host.provide_locations = false;
    tasync_scope_t *u = scope();
    go([&](tasync_coroutine_t *) { delay(5); }, u);
    tasync_scope_dispose(u, TASYNC_DISPOSE_ON_RELEASE, 0, nullptr);
    tasync_scope_release(u);
    ASSERT_EQ(got.size(), 5u);
    EXPECT_EQ(got[3].message, "A Scope was destroyed with 1 active coroutine(s) that were never awaited or disposed");
    EXPECT_EQ(got[4].message, "Coroutine is zombie in Scope");
    EXPECT_EQ(got[4].where, "none");
    for (const Located &l : got) EXPECT_EQ(l.message.find("unknown"), std::string::npos) << l.message;
    EXPECT_EQ(run(), 0);
}

TEST_F(Scope, S15_AnAwaitedScopeDroppedDoesNotWarnAboutIt) {
    tasync_scope_t *s = scope();
    go([&](tasync_coroutine_t *) { delay(20); }, s);
    await_scope(s, nullptr, 1);  // awaited (timed out)
    tasync_scope_dispose(s, TASYNC_DISPOSE_ON_RELEASE, 0, nullptr);
    tasync_scope_release(s);
    EXPECT_FALSE(warned("never awaited"));
    EXPECT_EQ(run(), 0);
}

TEST_F(Scope, S15_TasksStuckWhileBeingCancelledAreReported) {
    tasync_runtime_set_zombie_timeout(rt, 10 * kMs);
    host.location_line = 70;
    go([&](tasync_coroutine_t *) {  // spawned at test.php:71
        // Ignores the first cancellation for a while.
        delay(60000);
        delay(60);
    });
    tasync_yield(rt, nullptr);
    tasync_runtime_shutdown(rt, nullptr);
    EXPECT_EQ(run(), 0);
    EXPECT_TRUE(warned("spawned at test.php:71 (graceful shutdown) is stuck while being cancelled: suspended at"));
}

// Seed 003, "Cancelling All Coroutines in a Scope" (periods shortened).
TEST_F(Scope, S6_EveryCoroutineReceivesTheCancellation_Seed003) {
    ScopeRef s(scope());
    go([&](tasync_coroutine_t *) {
        for (;;) {
            say("Working...");
            if (delay(10) == -ECANCELED) break;
        }
        say("I was cancelled!");
    }, s);
    go([&](tasync_coroutine_t *) {
        for (;;) {
            say("Also working...");
            if (delay(10) == -ECANCELED) break;
        }
        say("Me too!");
    }, s);
    // "Works for 3 seconds": here, until both printed three times (counting
    // lines, not time, keeps the output independent of the machine's load).
    while (out.size() < 6) delay(1);
    tasync_scope_cancel(s, nullptr);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"Working...", "Also working...", "Working...", "Also working...",
                                             "Working...", "Also working...", "I was cancelled!", "Me too!"}));
}

// Seed 003, "Finally: Guaranteed Cleanup".
TEST_F(Scope, S6_CleanupRunsAfterTheCancellation_Seed003) {
    ScopeRef s(scope());
    go([&](tasync_coroutine_t *) {
        say("Starting work");
        if (delay(10000) == 0) say("Finished");
        say("Cleaning up resources");  // the finally block
    }, s);
    delay(10);
    tasync_scope_cancel(s, nullptr);
    EXPECT_EQ(run(), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"Starting work", "Cleaning up resources"}));
}

// A host whose handlers need its per-coroutine state (PHP's VM stack) routes
// the error itself, before its entry function tears that state down.
TEST_F(Scope, S10_TheHostMayRouteTheErrorBeforeItsEntryReturns) {
    ScopeRef s(scope());
    on_error(s, [&](tasync_scope_t *, tasync_coroutine_t *, void *e, void **) {
        say("handler: " + message_of(e));
        return 0;
    });
    go([&](tasync_coroutine_t *self) {
        fail(self, "x");
        EXPECT_EQ(tasync_coroutine_route_error(self), 0);
        say("entry still running");
        EXPECT_EQ(tasync_coroutine_route_error(self), 0) << "a second call does nothing";
    }, s);
    EXPECT_EQ(await_scope(s), 0);
    EXPECT_EQ(out, (std::vector<std::string>{"handler: x", "entry still running"}));
    EXPECT_EQ(tasync_coroutine_route_error(tasync_coroutine_current(rt)), TASYNC_EBAD_STATE);
    EXPECT_EQ(run(), 0);
}
