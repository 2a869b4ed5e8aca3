// Pins the layout of every public struct. A change here is an ABI break:
// append members at the end and bump TASYNC_ABI_VERSION_MINOR instead
// (then update these numbers deliberately).
#include <tasync/tasync.h>

#include <gtest/gtest.h>

#include <cstddef>

#define PIN_SIZE(type, bytes) EXPECT_EQ(sizeof(type), static_cast<std::size_t>(bytes)) << #type
#define PIN_OFF(type, member, bytes) \
    EXPECT_EQ(offsetof(type, member), static_cast<std::size_t>(bytes)) << #type "." #member

static_assert(sizeof(void *) == 8, "the pinned layout is for LP64");

TEST(AbiLayout, Version) {
    EXPECT_EQ(TASYNC_ABI_VERSION_MAJOR, 1);
    EXPECT_EQ(TASYNC_ABI_VERSION_MINOR, 3);
    EXPECT_EQ(TASYNC_ABI_VERSION, 0x10003u);
}

TEST(AbiLayout, BackendTable) {
    PIN_SIZE(tasync_backend_t, 192);
    PIN_OFF(tasync_backend_t, size, 0);
    PIN_OFF(tasync_backend_t, abi_version, 4);
    PIN_OFF(tasync_backend_t, name, 8);
    PIN_OFF(tasync_backend_t, version, 16);
    PIN_OFF(tasync_backend_t, capabilities, 24);
    PIN_OFF(tasync_backend_t, op_mask, 32);
    PIN_OFF(tasync_backend_t, loop_create, 40);
    PIN_OFF(tasync_backend_t, loop_destroy, 48);
    PIN_OFF(tasync_backend_t, loop_run, 56);
    PIN_OFF(tasync_backend_t, loop_wakeup, 64);
    PIN_OFF(tasync_backend_t, loop_now, 72);
    PIN_OFF(tasync_backend_t, timer_open, 80);
    PIN_OFF(tasync_backend_t, timer_start, 88);
    PIN_OFF(tasync_backend_t, timer_stop, 96);
    PIN_OFF(tasync_backend_t, io_open, 104);
    PIN_OFF(tasync_backend_t, io_start, 112);
    PIN_OFF(tasync_backend_t, io_stop, 120);
    PIN_OFF(tasync_backend_t, handle_close, 128);
    PIN_OFF(tasync_backend_t, signal_open, 136);
    PIN_OFF(tasync_backend_t, child_open, 144);
    PIN_OFF(tasync_backend_t, op_submit, 152);
    PIN_OFF(tasync_backend_t, op_cancel, 160);
    PIN_OFF(tasync_backend_t, work_submit, 168);
    PIN_OFF(tasync_backend_t, work_cancel, 176);
    PIN_OFF(tasync_backend_t, loop_fork, 184);
    EXPECT_EQ(TASYNC_BACKEND_REQUIRED_SIZE, 152u);
}

// TASYNC_BACKEND_ENTRIES names every function member once, in table order,
// from loop_create to the end of the table: a member appended without its
// entry (or an entry out of order) fails here.
TEST(AbiLayout, BackendEntriesListEveryFunctionMemberInOrder) {
    struct Entry {
        const char *name;
        std::size_t offset;
        int role;
        int since;
    };
#define ENTRY_(member, role, since) \
    Entry{#member, offsetof(tasync_backend_t, member), TASYNC_ENTRY_##role, since},
    const Entry entries[] = {TASYNC_BACKEND_ENTRIES(ENTRY_)};
#undef ENTRY_
    const std::size_t n = sizeof(entries) / sizeof(entries[0]);
    std::size_t expected = offsetof(tasync_backend_t, loop_create);
    int required = 0, unused = 0;
    for (const Entry &e : entries) {
        EXPECT_EQ(e.offset, expected) << e.name << " is not the next member of the table";
        expected = e.offset + sizeof(void *);
        EXPECT_LE(e.since, TASYNC_ABI_VERSION_MINOR) << e.name;
        required += e.role == TASYNC_ENTRY_REQUIRED;
        unused += e.role == TASYNC_ENTRY_UNUSED;
    }
    EXPECT_EQ(expected, sizeof(tasync_backend_t)) << "a member after " << entries[n - 1].name << " is not listed";
    // The reactor contract of ABI 1.2: loop create/destroy/run/wakeup/now,
    // io open/start/stop, handle_close; timers, signals and children are
    // the core's.
    EXPECT_EQ(required, 9);
    EXPECT_EQ(unused, 5);
    // A required entry lies within the ABI 1.0 part every table has.
    for (const Entry &e : entries) {
        if (e.role == TASYNC_ENTRY_REQUIRED) {
            EXPECT_LT(e.offset, TASYNC_BACKEND_REQUIRED_SIZE) << e.name;
        }
    }
}

TEST(AbiLayout, OpcodeCountIsAMacroOutsideTheEnum) {
    EXPECT_EQ(TASYNC_OPCODE_COUNT, TASYNC_OP_OPENAT + 1);
    EXPECT_EQ(TASYNC_OP_COUNT_, TASYNC_OPCODE_COUNT) << "the ABI 1.0 name still works";
}

TEST(AbiLayout, Op) {
    PIN_SIZE(tasync_op_t, 104);
    PIN_OFF(tasync_op_t, size, 0);
    PIN_OFF(tasync_op_t, opcode, 4);
    PIN_OFF(tasync_op_t, flags, 6);
    PIN_OFF(tasync_op_t, fd, 8);
    PIN_OFF(tasync_op_t, result, 12);
    PIN_OFF(tasync_op_t, buf, 16);
    PIN_OFF(tasync_op_t, len, 24);
    PIN_OFF(tasync_op_t, offset, 32);
    PIN_OFF(tasync_op_t, op_flags, 40);
    PIN_OFF(tasync_op_t, mode, 44);
    PIN_OFF(tasync_op_t, addrlen, 48);
    PIN_OFF(tasync_op_t, cb, 56);
    PIN_OFF(tasync_op_t, data, 64);
    PIN_OFF(tasync_op_t, internal, 72);
}

TEST(AbiLayout, Work) {
    PIN_SIZE(tasync_work_t, 64);
    PIN_OFF(tasync_work_t, size, 0);
    PIN_OFF(tasync_work_t, flags, 4);
    PIN_OFF(tasync_work_t, run, 8);
    PIN_OFF(tasync_work_t, done, 16);
    PIN_OFF(tasync_work_t, data, 24);
    PIN_OFF(tasync_work_t, internal, 32);
}

TEST(AbiLayout, LoopOptions) {
    PIN_SIZE(tasync_loop_options_t, 40);
    PIN_OFF(tasync_loop_options_t, size, 0);
    PIN_OFF(tasync_loop_options_t, flags, 4);
    PIN_OFF(tasync_loop_options_t, queue_depth, 8);
    PIN_OFF(tasync_loop_options_t, errbuf, 16);
    PIN_OFF(tasync_loop_options_t, errbuf_size, 24);
    PIN_OFF(tasync_loop_options_t, thread_pool_size, 32);  // ABI 1.3
}

TEST(AbiLayout, HostTable) {
    PIN_SIZE(tasync_host_t, 136);
    PIN_OFF(tasync_host_t, size, 0);
    PIN_OFF(tasync_host_t, value_retain, 8);
    PIN_OFF(tasync_host_t, value_release, 16);
    PIN_OFF(tasync_host_t, error_retain, 24);
    PIN_OFF(tasync_host_t, error_release, 32);
    PIN_OFF(tasync_host_t, error_create, 40);
    PIN_OFF(tasync_host_t, error_is_cancellation, 48);
    PIN_OFF(tasync_host_t, error_describe, 56);
    PIN_OFF(tasync_host_t, coroutine_enter, 64);
    PIN_OFF(tasync_host_t, coroutine_leave, 72);
    PIN_OFF(tasync_host_t, coroutine_free, 80);
    PIN_OFF(tasync_host_t, warning, 88);
    PIN_OFF(tasync_host_t, capture_location, 96);
    PIN_OFF(tasync_host_t, may_suspend, 104);   // ABI 1.2
    PIN_OFF(tasync_host_t, wait_end, 112);      // ABI 1.2
    PIN_OFF(tasync_host_t, warning_at, 120);    // ABI 1.2
    PIN_OFF(tasync_host_t, stall_report, 128);  // ABI 1.2
    PIN_SIZE(tasync_stall_info_t, 64);             // ABI 1.2
    PIN_OFF(tasync_stall_info_t, size, 0);
    PIN_OFF(tasync_stall_info_t, is_main, 4);
    PIN_OFF(tasync_stall_info_t, co, 8);
    PIN_OFF(tasync_stall_info_t, co_data, 16);
    PIN_OFF(tasync_stall_info_t, coroutine_id, 24);
    PIN_OFF(tasync_stall_info_t, spawned_at, 32);
    PIN_OFF(tasync_stall_info_t, stalled_ns, 48);
    PIN_OFF(tasync_stall_info_t, timeout_ns, 56);
    PIN_SIZE(tasync_location_t, 16);
    PIN_OFF(tasync_location_t, file, 0);
    PIN_OFF(tasync_location_t, line, 8);
}

TEST(AbiLayout, RuntimeOptions) {
    PIN_SIZE(tasync_runtime_options_t, 80);
    PIN_OFF(tasync_runtime_options_t, size, 0);
    PIN_OFF(tasync_runtime_options_t, flags, 4);
    PIN_OFF(tasync_runtime_options_t, backend, 8);
    PIN_OFF(tasync_runtime_options_t, backend_dir, 16);
    PIN_OFF(tasync_runtime_options_t, stack_size, 24);
    PIN_OFF(tasync_runtime_options_t, stack_cache, 32);
    PIN_OFF(tasync_runtime_options_t, thread_pool_size, 36);
    PIN_OFF(tasync_runtime_options_t, host, 40);
    PIN_OFF(tasync_runtime_options_t, host_data, 48);
    PIN_OFF(tasync_runtime_options_t, errbuf, 56);
    PIN_OFF(tasync_runtime_options_t, errbuf_size, 64);
    PIN_OFF(tasync_runtime_options_t, zombie_timeout_ns, 72);
}

TEST(AbiLayout, SpawnOptionsAndBackendInfo) {
    PIN_SIZE(tasync_spawn_options_t, 64);
    PIN_OFF(tasync_spawn_options_t, entry, 8);
    PIN_OFF(tasync_spawn_options_t, arg, 16);
    PIN_OFF(tasync_spawn_options_t, arg_release, 24);
    PIN_OFF(tasync_spawn_options_t, scope, 32);
    PIN_OFF(tasync_spawn_options_t, host_data, 40);
    PIN_OFF(tasync_spawn_options_t, location, 48);
    PIN_SIZE(tasync_backend_info_t, 48);
    PIN_OFF(tasync_backend_info_t, abi_version, 4);
    PIN_OFF(tasync_backend_info_t, name, 8);
    PIN_OFF(tasync_backend_info_t, version, 16);
    PIN_OFF(tasync_backend_info_t, path, 24);
    PIN_OFF(tasync_backend_info_t, capabilities, 32);
    PIN_OFF(tasync_backend_info_t, op_mask, 40);
}

TEST(AbiLayout, StructuredConcurrency) {
    PIN_SIZE(tasync_context_key_t, 24);
    PIN_OFF(tasync_context_key_t, str, 0);
    PIN_OFF(tasync_context_key_t, len, 8);
    PIN_OFF(tasync_context_key_t, object, 16);
    PIN_SIZE(tasync_group_key_t, 32);
    PIN_OFF(tasync_group_key_t, is_string, 0);
    PIN_OFF(tasync_group_key_t, num, 8);
    PIN_OFF(tasync_group_key_t, str, 16);
    PIN_OFF(tasync_group_key_t, len, 24);
    PIN_SIZE(tasync_group_options_t, 40);
    PIN_OFF(tasync_group_options_t, concurrency, 4);
    PIN_OFF(tasync_group_options_t, parent, 8);
    PIN_OFF(tasync_group_options_t, build_results, 16);
    PIN_OFF(tasync_group_options_t, data, 24);
    PIN_OFF(tasync_group_options_t, queue_limit, 32);
    PIN_SIZE(tasync_await_many_options_t, 16);
    PIN_OFF(tasync_await_many_options_t, mode, 4);
    PIN_OFF(tasync_await_many_options_t, count, 8);
    PIN_SIZE(tasync_await_many_entry_t, 40);
    PIN_OFF(tasync_await_many_entry_t, state, 4);
    PIN_OFF(tasync_await_many_entry_t, index, 8);
    PIN_OFF(tasync_await_many_entry_t, awaitable, 16);
    PIN_OFF(tasync_await_many_entry_t, value, 24);
    PIN_OFF(tasync_await_many_entry_t, error, 32);
    PIN_SIZE(tasync_group_entry_t, 64);
    PIN_OFF(tasync_group_entry_t, state, 4);
    PIN_OFF(tasync_group_entry_t, key, 8);
    PIN_OFF(tasync_group_entry_t, coroutine, 40);
    PIN_OFF(tasync_group_entry_t, value, 48);
    PIN_OFF(tasync_group_entry_t, error, 56);
    PIN_SIZE(tasync_wait_info_t, 56);
    PIN_OFF(tasync_wait_info_t, kind, 4);
    PIN_OFF(tasync_wait_info_t, target, 8);
    PIN_OFF(tasync_wait_info_t, scope, 16);
    PIN_OFF(tasync_wait_info_t, fd, 24);
    PIN_OFF(tasync_wait_info_t, events, 28);
    PIN_OFF(tasync_wait_info_t, signum, 32);
    PIN_OFF(tasync_wait_info_t, pid, 36);
    PIN_OFF(tasync_wait_info_t, deadline_ns, 40);
    PIN_OFF(tasync_wait_info_t, count, 48);
}

// Enum values are part of the ABI too.
TEST(AbiLayout, EnumValues) {
    EXPECT_EQ(TASYNC_IO_READABLE, 1);
    EXPECT_EQ(TASYNC_IO_WRITABLE, 2);
    EXPECT_EQ(TASYNC_IO_HANGUP, 4);
    EXPECT_EQ(TASYNC_IO_ERROR, 8);
    EXPECT_EQ(TASYNC_IO_PRIORITY, 16);
    EXPECT_EQ(TASYNC_CAP_COMPLETION, 1);
    EXPECT_EQ(TASYNC_CAP_OFFLOAD, 2);
    EXPECT_EQ(TASYNC_CAP_HANGUP, 16);
    EXPECT_EQ(TASYNC_CAP_PRIORITY, 32);
    EXPECT_EQ(TASYNC_CAP_PRECISE_TIMEOUT, 64);
    EXPECT_EQ(TASYNC_OP_READ, 1);
    EXPECT_EQ(TASYNC_OP_OPENAT, 9);
    EXPECT_EQ(TASYNC_ERROR_CANCELLATION, 1);
    EXPECT_EQ(TASYNC_ERROR_SYSTEM, 6);
    EXPECT_EQ(TASYNC_EBACKEND_NOT_FOUND, -30001);
    EXPECT_EQ(TASYNC_EBAD_STATE, -30019);
    EXPECT_EQ(TASYNC_CO_STARTED, 1);
    EXPECT_EQ(TASYNC_CO_PROTECTED, 512);
    EXPECT_EQ(TASYNC_CO_HIGH_PRIORITY, 1024);  // ABI 1.2
    EXPECT_EQ(TASYNC_CO_ABORTED, 2048);        // ABI 1.2
    EXPECT_EQ(TASYNC_ABORT_END, 0);            // ABI 1.2
    EXPECT_EQ(TASYNC_ABORT_FATAL, 1);          // ABI 1.2
    EXPECT_EQ(TASYNC_SCOPE_GLOBAL, 1);
    EXPECT_EQ(TASYNC_SCOPE_FAILED, 128);
    EXPECT_EQ(TASYNC_DISPOSE_CANCEL, 1);
    EXPECT_EQ(TASYNC_DISPOSE_ON_RELEASE, 4);
    EXPECT_EQ(TASYNC_GROUP_TASK_DONE, 3);
    EXPECT_EQ(TASYNC_WAIT_END, 12);
    EXPECT_EQ(TASYNC_WAIT_GROUP_SLOT, 13);
    EXPECT_EQ(TASYNC_WAIT_GROUP_COMPLETION, 14);
    EXPECT_EQ(TASYNC_GROUP_CLOSED, 1);
    EXPECT_EQ(TASYNC_GROUP_LET_GO, 8);
    EXPECT_EQ(TASYNC_AWAIT_ALL, 1);
    EXPECT_EQ(TASYNC_AWAIT_ANY_OF_OR_FAIL, 6);
    EXPECT_EQ(TASYNC_AWAIT_ITEM_PENDING, 1);
    EXPECT_EQ(TASYNC_AWAIT_ITEM_FAILED, 3);
    EXPECT_EQ(TASYNC_SHUTDOWN_FORCED, 2);
}

TEST(AbiErrors, EveryCodeHasANameAndAMessage) {
#define CHECK_(name, value, msg)                                 \
    EXPECT_STREQ(tasync_err_name(value), "TASYNC_E" #name);      \
    EXPECT_STREQ(tasync_strerror(value), msg);                   \
    EXPECT_TRUE(TASYNC_IS_PROJECT_ERROR(value));
    TASYNC_ERROR_MAP(CHECK_)
#undef CHECK_
    EXPECT_STREQ(tasync_err_name(-ECANCELED), "ECANCELED");
    EXPECT_FALSE(TASYNC_IS_PROJECT_ERROR(-ECANCELED));
    EXPECT_STREQ(tasync_strerror(-EINVAL), "Invalid argument");
    EXPECT_STREQ(tasync_strerror(-29999999), "unknown error");
}
