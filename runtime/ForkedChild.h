// A child that the measured program fork()s inherits the shim as it was in the parent: the parent's
// measured file open, its locks in whatever state other threads left them, none of its threads. Such a
// child must write nothing and wait for nothing of the shim's; this says which process is one.
#pragma once

namespace roofcheck::runtime {

/// From now on, a child made by fork() knows it is one (pthread_atfork). Idempotent; throws roofcheck::Error
/// when the handler cannot be registered.
void watchForForks();
/// true in a child that fork() made after watchForForks().
bool inForkedChild();

} // namespace roofcheck::runtime
