// Command halbench measures, on the machine it runs on, what every gohal
// choice costs.
//
// It times the binding modes of each op (inlined, direct, flag, table,
// closure, static, generic), the spin locks, refcounts and counters of the
// kit, all in cycles and nanoseconds, and compares result files with
// ministat's statistics.
//
// Usage:
//
//	halbench [run] [flags]       measure and report (the default)
//	halbench features [-json]    print the CPU's features and the dispatch table
//	halbench compare [flags] [FILE...]
//	                             compare samples like ministat (plain columns), or Go benchmark
//	                             files: a summary by the report's rule (-v: and ministat)
//	halbench tune [flags]        measure every variant of every op and print the GOHAL line for this machine
//	halbench peers [flags]       run the peers module: the kit against other libraries
//	halbench lockwait [flags]    how long Lock calls wait: each lock's wait distribution beside sync.Mutex's
//	halbench results [flags]     all of the above for this machine, as one Markdown file (results/<cpu>.md)
//
// Run `halbench -h` for the list of commands and `halbench CMD -h` for a
// command's flags. A bad flag or argument gets one line saying what is
// wrong and one pointing at the usage, and exit status 2, before anything
// is measured. Results go to standard output and progress to standard
// error: a status line on a terminal, else a line per section as it
// starts.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	cmd := "run"
	if len(args) > 0 {
		switch a := args[0]; {
		case a == "-h" || a == "-help" || a == "--help":
			// The whole tool's usage: the subcommands; run's flags
			// are `halbench run -h`.
			fmt.Fprint(stderr, usage)
			return 0
		case len(a) > 0 && a[0] != '-':
			cmd, args = a, args[1:]
		}
	}
	switch cmd {
	case "run":
		return runBench(args, stdout, stderr)
	case "features":
		return runFeatures(args, stdout, stderr)
	case "compare":
		return runCompare(args, stdout, stderr)
	case "tune":
		return runTune(args, stdout, stderr)
	case "peers":
		return runPeers(args, stdout, stderr)
	case "lockwait":
		return runLockWait(args, stdout, stderr)
	case "results":
		return runResults(args, stdout, stderr)
	case "help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "halbench: unknown command %q\n%s", cmd, usage)
		return 2
	}
}

// subcommands lists what run dispatches, with one line each, in the order
// usage prints them; TestUsageListsEverySubcommand checks it against run.
var subcommands = []struct{ name, args, doc string }{
	{"run", "[flags]", "measure and report (the default: halbench [flags])"},
	{"features", "[-json]", "CPU features and the dispatch table"},
	{"compare", "[flags] [FILE...]", "compare samples: ministat input, or Go benchmark files (a summary)"},
	{"tune", "[flags]", "measure each op's variants; print a GOHAL line"},
	{"peers", "[flags]", "gohal against other libraries (runs the peers module)"},
	{"lockwait", "[flags]", "Lock wait latency per lock beside sync.Mutex (p50 ... max)"},
	{"results", "[-o FILE] [flags]", "everything for this machine, as Markdown (results/<cpu>.md)"},
	{"help", "", "print this text"},
}

var usage = func() string {
	var b strings.Builder
	b.WriteString("usage: halbench [run] [flags]\n       halbench COMMAND [flags]\n\nCommands:\n")
	for _, c := range subcommands {
		fmt.Fprintf(&b, "  %-9s %-18s %s\n", c.name, c.args, c.doc)
	}
	b.WriteString(`
Run 'halbench COMMAND -h' for a command's flags ('halbench run -h' for the
default's). Typical uses:
  go run ./cmd/halbench                          the report (about a minute)
  go run ./cmd/halbench -format gobench > a.txt  samples for benchstat or halbench compare
  go run ./cmd/halbench -filter '^Lock/' -threads 1,2 -svg locks.svg
  go run ./cmd/halbench results                  this machine's results file (several minutes)
`)
	return b.String()
}()
