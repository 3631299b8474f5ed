// Package probe holds measurement probes that are not part of gohal's API.
//
// For each op with a single variant on the architecture, <Op>Flagged is
// that variant (as in package hal/direct) behind a one-byte flag test that
// never branches, the shape of hal's entries for ops with several
// variants, so that lab/suite's BenchmarkDispatch can measure what
// the test costs on ops that do not otherwise pay it.
//
// Everything here except this comment is generated from the op spec by
// gohal's generator (the module github.com/gohal/gohal/gen, run by go
// generate ./hal/). With the purego build tag, and
// on architectures without a backend, the package is empty.
package probe
