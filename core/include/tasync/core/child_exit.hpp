// Internals of tasync_await_child_exit (child_exit.cpp) that tests reach.
#pragma once

namespace tasync::detail {

// Makes tasync_await_child_exit poll waitid as it does where the kernel has
// no pidfd, so that the fallback is tested on every machine. Process-wide.
void child_exit_force_polling(bool on);

}  // namespace tasync::detail
