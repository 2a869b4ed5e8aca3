// The table the backend exports, and ABI negotiation (docs/backend-guide.md,
// version.h): the tool derives tables of other shapes from the loaded one
// and checks that the validation every host applies accepts and refuses
// exactly what the rules say, and that an accepted copy drives the backend.
#include <cerrno>
#include <cstring>
#include <vector>

#include "harness.hpp"

using namespace tasync::conformance;

namespace {

// Runs a readable pipe and a wakeup through the given table: a normalised
// copy must drive the backend like the original.
void smoke(const tasync_backend_t &ops) {
    tasync_loop_t *loop = nullptr;
    ASSERT_EQ(ops.loop_create(nullptr, &loop), 0);
    ASSERT_EQ(ops.loop_wakeup(loop), 0);
    const std::uint64_t start = mono_ns();
    ASSERT_GE(ops.loop_run(loop, 4 * kSec), 0);
    EXPECT_LT(mono_ns() - start, static_cast<std::uint64_t>(2 * kSec)) << "the wakeup did not end the wait";
    FdPair p = make_pipe(O_NONBLOCK);
    ASSERT_EQ(put(p.b), 1);
    unsigned seen = 0;
    tasync_handle_t *io = nullptr;
    ASSERT_EQ(ops.io_open(loop, p.a, [](tasync_handle_t *, void *d, int, unsigned ev) { *static_cast<unsigned *>(d) |= ev; },
                          &seen, &io),
              0);
    ASSERT_EQ(ops.io_start(io, TASYNC_IO_READABLE), 0);
    const std::uint64_t end = mono_ns() + kPatience;
    while (seen == 0 && mono_ns() < end) ASSERT_GE(ops.loop_run(loop, 50 * kMs), 0);
    EXPECT_TRUE(seen & TASYNC_IO_READABLE);
    ops.handle_close(io);
    ops.loop_destroy(loop);
}

}  // namespace

TEST(Table, ABI_ExportedTableIsWellFormed) {
    const LoadedBackend &b = loaded();
    const tasync_backend_t *raw = b.raw;
    ASSERT_NE(raw, nullptr);
    EXPECT_EQ(TASYNC_ABI_MAJOR_OF(raw->abi_version), static_cast<unsigned>(TASYNC_ABI_VERSION_MAJOR));
    EXPECT_GE(raw->size, TASYNC_BACKEND_REQUIRED_SIZE);
    EXPECT_NE(raw->name, nullptr) << "the table names the backend";
    EXPECT_NE(raw->version, nullptr) << "the table gives a version string";
    if (raw->name != nullptr) {
        EXPECT_GT(std::strlen(raw->name), 0u);
    }
    if (TASYNC_ABI_MINOR_OF(raw->abi_version) == TASYNC_ABI_VERSION_MINOR) {
        EXPECT_EQ(raw->size, sizeof(tasync_backend_t)) << "a table of this ABI version has this size";
    }

    const std::uint64_t known = TASYNC_CAP_COMPLETION | TASYNC_CAP_OFFLOAD | TASYNC_CAP_FILE_READINESS |
                                TASYNC_CAP_PIDFD | TASYNC_CAP_HANGUP | TASYNC_CAP_PRIORITY |
                                TASYNC_CAP_PRECISE_TIMEOUT;
    if (TASYNC_ABI_MINOR_OF(raw->abi_version) <= TASYNC_ABI_VERSION_MINOR) {
        EXPECT_EQ(raw->capabilities & ~known, 0u) << "capability bits this ABI version does not define";
    }
    EXPECT_EQ(raw->op_mask >> TASYNC_OPCODE_COUNT, 0u) << "op_mask has bits for opcodes this ABI does not define";

    // Capabilities and entries agree (an advertised capability without its
    // entries would be silently dropped by every host).
    const bool has_ops_entries = TASYNC_TABLE_HAS(raw, tasync_backend_t, op_cancel) && raw->op_submit != nullptr &&
                                 raw->op_cancel != nullptr;
    if (raw->capabilities & TASYNC_CAP_COMPLETION) {
        EXPECT_TRUE(has_ops_entries) << "TASYNC_CAP_COMPLETION advertised but op_submit/op_cancel missing";
        EXPECT_NE(raw->op_mask, 0u) << "TASYNC_CAP_COMPLETION advertised with an empty op_mask";
    } else {
        EXPECT_EQ(raw->op_mask, 0u) << "op_mask set without TASYNC_CAP_COMPLETION";
    }
    if (TASYNC_ABI_MINOR_OF(raw->abi_version) >= 3) {
        // Retired in ABI 1.3: the core runs offloaded work on its own pool.
        EXPECT_EQ(raw->capabilities & TASYNC_CAP_OFFLOAD, 0u) << "TASYNC_CAP_OFFLOAD is unused since ABI 1.3";
        EXPECT_TRUE(raw->work_submit == nullptr && raw->work_cancel == nullptr)
            << "work_submit/work_cancel are unused since ABI 1.3";
    }

    // The entry is a pure function of the host's version: asked again, it
    // returns the same table.
    EXPECT_EQ(b.entry(TASYNC_ABI_VERSION), raw);
    // A newer minor host is served too (it ignores nothing it needs).
    EXPECT_NE(b.entry(TASYNC_ABI_MAKE(TASYNC_ABI_VERSION_MAJOR, TASYNC_ABI_VERSION_MINOR + 1)), nullptr)
        << "the backend refused a host of a newer minor version of the same major";
}

TEST(Abi, ABI_NewerMinorTableWithExtraTailIsAccepted) {
    // A table from the future: same major, a newer minor, and members this
    // tool does not know after the ones it does.
    struct Future {
        tasync_backend_t known;
        void *later_member[6];
        char later_bytes[40];
    } future;
    std::memset(&future, 0xA5, sizeof(future));  // the tail is garbage to us
    std::memcpy(&future.known, &B(), sizeof(future.known));
    future.known.size = sizeof(future);
    future.known.abi_version = TASYNC_ABI_MAKE(TASYNC_ABI_VERSION_MAJOR, TASYNC_ABI_VERSION_MINOR + 3);
    Table t;
    std::string why;
    ASSERT_EQ(validate_table(&future.known, &t, &why), 0) << why;
    EXPECT_EQ(t.raw_size, sizeof(future));
    EXPECT_EQ(t.ops.size, sizeof(tasync_backend_t)) << "the copy has the size this tool knows";
    EXPECT_EQ(t.ops.loop_run, B().loop_run);
    EXPECT_EQ(t.ops.capabilities, B().capabilities);
    smoke(t.ops);
}

TEST(Abi, ABI_RequiredSizeTableHasNoOptionalMembers) {
    // An ABI 1.0 backend that stops after child_open: what lies past its
    // declared size must never be read (here it says "garbage").
    struct Old {
        unsigned char bytes[sizeof(tasync_backend_t)];
    } old;
    std::memset(&old, 0x5A, sizeof(old));
    std::memcpy(&old, &B(), TASYNC_BACKEND_REQUIRED_SIZE);
    auto *table = reinterpret_cast<tasync_backend_t *>(&old);
    table->size = TASYNC_BACKEND_REQUIRED_SIZE;
    table->abi_version = TASYNC_ABI_MAKE(TASYNC_ABI_VERSION_MAJOR, 0);
    Table t;
    std::string why;
    ASSERT_EQ(validate_table(table, &t, &why), 0) << why;
    EXPECT_EQ(t.ops.op_submit, nullptr);
    EXPECT_EQ(t.ops.op_cancel, nullptr);
    EXPECT_EQ(t.ops.capabilities & TASYNC_CAP_COMPLETION, 0u) << "capabilities whose entries are absent are cleared";
    EXPECT_EQ(t.ops.op_mask, 0u);
    EXPECT_EQ(t.ops.capabilities & ~static_cast<std::uint64_t>(TASYNC_CAP_COMPLETION),
              B().capabilities & ~static_cast<std::uint64_t>(TASYNC_CAP_COMPLETION));
    smoke(t.ops);
}

TEST(Abi, ABI_OtherMajorVersionIsRefused) {
    for (std::uint32_t major : {0u, static_cast<unsigned>(TASYNC_ABI_VERSION_MAJOR) + 1, 0xffffu}) {
        if (major == TASYNC_ABI_VERSION_MAJOR) continue;
        tasync_backend_t copy = B();
        copy.abi_version = TASYNC_ABI_MAKE(major, 0);
        Table t;
        std::string why;
        EXPECT_EQ(validate_table(&copy, &t, &why), TASYNC_EBACKEND_ABI_MAJOR) << "major " << major;
        EXPECT_NE(why.find("ABI " + std::to_string(major) + ".0"), std::string::npos) << why;
    }
}

TEST(Abi, ABI_TableSmallerThanRequiredIsRefused) {
    for (std::size_t size : {std::size_t{0}, offsetof(tasync_backend_t, loop_create),
                             TASYNC_BACKEND_REQUIRED_SIZE - sizeof(void *), TASYNC_BACKEND_REQUIRED_SIZE - 1}) {
        tasync_backend_t copy = B();
        copy.size = static_cast<std::uint32_t>(size);
        Table t;
        std::string why;
        EXPECT_EQ(validate_table(&copy, &t, &why), TASYNC_EBACKEND_TABLE_SMALL) << "size " << size;
        EXPECT_NE(why.find(std::to_string(size) + " bytes"), std::string::npos) << why;
    }
}

TEST(Abi, ABI_MissingRequiredEntryIsRefused) {
    std::size_t n = 0;
    const RequiredEntry *req = required_entries(&n);
    ASSERT_EQ(n, 9u) << "nine required entries: loop_create/destroy/run/wakeup/now, io_open/start/stop, handle_close";
    for (std::size_t i = 0; i < n; i++) {
        tasync_backend_t copy = B();
        void *null_fn = nullptr;
        std::memcpy(reinterpret_cast<char *>(&copy) + req[i].offset, &null_fn, sizeof(null_fn));
        Table t;
        std::string why;
        EXPECT_EQ(validate_table(&copy, &t, &why), TASYNC_EBACKEND_MISSING_OP) << req[i].name;
        EXPECT_NE(why.find(req[i].name), std::string::npos) << why;
    }
}

// ABI 1.2 retired the timer, signal and child slots: a table without them
// is accepted, and so is an ABI 1.1 table that fills them (with functions
// no host may call: each one fails the test).
TEST(Abi, ABI_RetiredSlotsMayBeEmptyOrFilled) {
    tasync_backend_t empty = B();
    empty.timer_open = nullptr;
    empty.timer_start = nullptr;
    empty.timer_stop = nullptr;
    empty.signal_open = nullptr;
    empty.child_open = nullptr;
    Table t;
    std::string why;
    ASSERT_EQ(validate_table(&empty, &t, &why), 0) << why;
    smoke(t.ops);

    tasync_backend_t old = B();
    old.abi_version = TASYNC_ABI_MAKE(TASYNC_ABI_VERSION_MAJOR, 1);
    old.size = static_cast<std::uint32_t>(offsetof(tasync_backend_t, loop_fork) + sizeof(void *));
    old.timer_open = [](tasync_loop_t *, tasync_timer_cb, void *, tasync_handle_t **) {
        ADD_FAILURE() << "timer_open called";
        return -ENOSYS;
    };
    old.timer_start = [](tasync_handle_t *, uint64_t, uint64_t) {
        ADD_FAILURE() << "timer_start called";
        return -ENOSYS;
    };
    old.timer_stop = [](tasync_handle_t *) {
        ADD_FAILURE() << "timer_stop called";
        return -ENOSYS;
    };
    old.signal_open = [](tasync_loop_t *, int, tasync_signal_cb, void *, tasync_handle_t **) {
        ADD_FAILURE() << "signal_open called";
        return -ENOSYS;
    };
    old.child_open = [](tasync_loop_t *, int, tasync_child_cb, void *, tasync_handle_t **) {
        ADD_FAILURE() << "child_open called";
        return -ENOSYS;
    };
    ASSERT_EQ(validate_table(&old, &t, &why), 0) << why;
    smoke(t.ops);
}

TEST(Abi, ABI_NullTableIsRefused) {
    Table t;
    std::string why;
    EXPECT_EQ(validate_table(nullptr, &t, &why), TASYNC_EBACKEND_NULL_TABLE);
    EXPECT_FALSE(why.empty());
}

TEST(Abi, ABI_AdvertisedCapabilityWithoutEntriesIsDropped) {
    tasync_backend_t copy = B();
    copy.capabilities |= TASYNC_CAP_COMPLETION;
    copy.op_mask = TASYNC_OP_BIT(TASYNC_OP_READ);
    copy.op_submit = nullptr;
    Table t;
    std::string why;
    ASSERT_EQ(validate_table(&copy, &t, &why), 0) << why;
    EXPECT_EQ(t.ops.capabilities & TASYNC_CAP_COMPLETION, 0u);
    EXPECT_EQ(t.ops.op_mask, 0u);
}

TEST(Abi, ABI_AnOlderBackendsThreadPoolIsIgnored) {
    // An ABI 1.2 backend with a pool of its own: the entries and the bit
    // are dropped, the rest of the table is used.
    tasync_backend_t copy = B();
    copy.abi_version = TASYNC_ABI_MAKE(TASYNC_ABI_VERSION_MAJOR, 2);
    copy.capabilities |= TASYNC_CAP_OFFLOAD;
    copy.work_submit = [](tasync_loop_t *, tasync_work_t *) { return 0; };
    copy.work_cancel = [](tasync_loop_t *, tasync_work_t *) { return 0; };
    Table t;
    std::string why;
    ASSERT_EQ(validate_table(&copy, &t, &why), 0) << why;
    EXPECT_EQ(t.ops.capabilities & TASYNC_CAP_OFFLOAD, 0u);
    EXPECT_EQ(t.ops.work_submit, nullptr);
    EXPECT_EQ(t.ops.work_cancel, nullptr);
    EXPECT_EQ(t.ops.loop_run, B().loop_run);
}
