// Package sandbox lets gohal's tests refuse chosen system calls to their
// own process with a seccomp filter.
//
// A server that confines itself in main does the same: the filter comes
// after package init, and makes the chosen calls fail with a chosen errno.
// The filter cannot be removed, so a test installs it in a child process
// (the test binary run again) and reports from there.
package sandbox
