// Package haltool is hal's tooling for tests, benchmarks and tools like
// halbench; programs calling the ops need only hal.
//
// A program calls package hal; a harness that compares hal's variants in
// one process, or lists them, imports this package too: [Force] switches
// an op's variant while the process runs, [Ops], [Variants] and [Runnable]
// list what this build and CPU have, [Binding] and [Inlined] say how hal's
// exported function reaches the chosen variant, and [Table] holds each
// op's choice as a func value (a [DispatchTable]). Importing haltool
// changes nothing in hal: its ops take the same path with or without it.
//
// Ops are named by their spec names ("fetchadd64", "cas128", "fenceheavy"
// for the asymmetric fence pair), as GOHAL and [hal.Selected] name them;
// the variants and their features are in the module's docs/variants.md.
package haltool
