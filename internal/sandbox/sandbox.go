// Package sandbox lets gohal's tests sandbox their own process as a server
// that confines itself in main does: a seccomp filter, installed after
// package init, that makes chosen system calls fail with a chosen errno.
//
// The filter cannot be removed, so a test installs it in a child process
// (the test binary run again) and reports from there.
package sandbox
