// Callback timers (tasync_timer_*, timers.cpp): entries in the core's timer
// heap.
#pragma once

#include <tasync/runtime.h>

#include <cstdint>

#include "list.hpp"
#include "timer_heap.hpp"

struct tasync_runtime;
// ------------------------------------------------------------------- timers

struct tasync_timer {
    tasync::detail::TimerEntry entry;
    tasync::detail::Link all_link;  // in rt->callback_timers
    tasync_runtime *rt = nullptr;
    tasync_timer_fn cb = nullptr;
    void *data = nullptr;
    std::uint64_t repeat = 0;
    bool in_callback = false;
    bool destroy_pending = false;
};
