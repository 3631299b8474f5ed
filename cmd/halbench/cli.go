package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/hal/haltool"
	"github.com/gohal/gohal/lab/benchfile"
	"github.com/gohal/gohal/lab/suite"
)

// How every subcommand reports a bad command line: one line naming the
// subcommand and what is wrong, one line saying where the usage is, exit
// status 2, before anything is measured:
//
//	halbench peers: flag provided but not defined: -bogus
//	run 'halbench peers -h' for usage
//
// The usage text itself (27–31 lines) is printed only when asked for, so
// that the one line that matters is not scrolled away.

// exitFor returns the exit status for err: 0 for nil, else 1, with err
// on stderr after prefix ("halbench lockwait").
func exitFor(stderr io.Writer, prefix string, err error) int {
	if err == nil {
		return 0
	}
	fmt.Fprintln(stderr, prefix+":", err)
	return 1
}

// writeOut prints rep as JSON with -json, else as text.
func writeOut[R any](w io.Writer, asJSON bool, rep R, text func(io.Writer, R) error) error {
	if asJSON {
		return writeJSONValue(w, rep)
	}
	return text(w, rep)
}

// usageFail prints msg as the usage error of subcommand sub and returns
// the exit status 2.
func usageFail(stderr io.Writer, sub, msg string) int {
	msg = strings.Join(strings.Fields(strings.ReplaceAll(msg, "\n", "; ")), " ")
	fmt.Fprintf(stderr, "halbench %s: %s\nrun 'halbench %s -h' for usage\n", sub, benchfile.Shorten(msg, 300), sub)
	return 2
}

// flagInvalidRE matches package flag's message for a value its flag
// rejects.
var flagInvalidRE = regexp.MustCompile(`^invalid (?:boolean )?value ("(?:[^"\\]|\\.)*") for (?:flag )?-([^:]+): (.*)$`)

// flagError turns an error of fs.Parse into the error to report:
// flag.ErrHelp unchanged, anything else a *usageError whose text says, for
// a value package flag cannot parse, what was expected ("-count "x": want
// a whole number") rather than "parse error".
func flagError(fs *flag.FlagSet, err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return err
	}
	msg := err.Error()
	if m := flagInvalidRE.FindStringSubmatch(msg); m != nil {
		why := m[3]
		if f := fs.Lookup(m[2]); f != nil && (why == "parse error" || why == "value out of range") {
			if g, ok := f.Value.(flag.Getter); ok {
				switch g.Get().(type) {
				case time.Duration:
					why = "want a duration such as 20ms or 1.5s"
				case int, int64, uint, uint64:
					if why == "parse error" {
						why = "want a whole number"
					}
				case float64:
					why = "want a number"
				case bool:
					why = "want true or false (-" + m[2] + "=false)"
				}
			}
		}
		msg = fmt.Sprintf("-%s %s: %s", m[2], m[1], why)
	}
	return &usageError{msg}
}

// argsDone reports a command's parse error err and its exit status.
// For -h it prints usage (status 0), for anything else it calls
// usageFail; done is false when err is nil.
func argsDone(stderr io.Writer, sub, usage string, err error) (code int, done bool) {
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stderr, usage)
		return 0, true
	case err != nil:
		return usageFail(stderr, sub, err.Error()), true
	}
	return 0, false
}

// parseFlags parses args with fs and returns the names of the flags set.
// The command takes no arguments; the error is flagError's.
func parseFlags(fs *flag.FlagSet, args []string) (map[string]bool, error) {
	if err := fs.Parse(args); err != nil {
		return nil, flagError(fs, err)
	}
	if fs.NArg() > 0 {
		return nil, &usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set, nil
}

// benchtimeValue is run's -benchtime: a positive duration per sample or,
// as go test's -benchtime, a count of iterations per sample ("100x").
type benchtimeValue struct {
	d     time.Duration
	iters int
}

// benchtimeWant says what -benchtime takes.
const benchtimeWant = "want a duration such as 20ms or a count such as 100x"

func (b *benchtimeValue) String() string {
	if b.iters > 0 {
		return strconv.Itoa(b.iters) + "x"
	}
	return b.d.String()
}

// Set parses a duration or "Nx".
func (b *benchtimeValue) Set(s string) error {
	if n, ok := strings.CutSuffix(s, "x"); ok {
		v, err := strconv.Atoi(n)
		if err != nil || v < 1 {
			return errors.New(benchtimeWant)
		}
		*b = benchtimeValue{iters: v}
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return errors.New(benchtimeWant)
	}
	if d <= 0 {
		return errors.New("must be positive; " + benchtimeWant)
	}
	*b = benchtimeValue{d: d}
	return nil
}

// sectionLogger returns a harness.section that prints, for a standard
// error that is not a terminal (a CI log, a file), one line per section as
// it starts: "halbench: measuring Lock (3/7, 24 benchmarks): Spin locks …".
// On a terminal the status line does that job instead.
func sectionLogger(w io.Writer, prefix string) func(i, n int, name string, benchmarks int) {
	return func(i, n int, name string, benchmarks int) {
		title := ""
		if s, ok := suite.LookupSection(name); ok && s.Title != "" {
			title = ": " + s.Title
		}
		plural := "s"
		if benchmarks == 1 {
			plural = ""
		}
		fmt.Fprintf(w, "%s: measuring %s (%d/%d, %d benchmark%s)%s\n", prefix, name, i, n, benchmarks, plural, title)
	}
}

// sectionMeasurer wraps m so that each of its n calls (tune measures one
// op, group or kit kind per call) is announced by log as it starts.
func sectionMeasurer(log func(i, n int, name string, benchmarks int), n int, m tuneMeasurer) tuneMeasurer {
	i := 0
	return func(benchs []suite.Benchmark) (map[string][]sample, error) {
		i++
		name := "?"
		if len(benchs) > 0 {
			name = benchs[0].Section
		}
		log(i, max(n, i), name, len(benchs))
		return m(benchs)
	}
}

// measuredOps is how many calls tune's measurer gets for ops and groups:
// one per op and group that has no error before measuring.
func measuredOps(ops []*tuneOp, groups []*tuneGroup) int {
	n := 0
	for _, o := range ops {
		if o.Error == "" {
			n++
		}
	}
	for _, g := range groups {
		if g.Error == "" {
			n++
		}
	}
	return n
}

// checkGOHALLine reports whether line is a GOHAL value this build and this
// CPU accept, as hal's init would judge it (dispatch's selection, the
// 128-bit group rule included): tune -check of a line hal rejects is a bad
// argument, not a failed check.
func checkGOHALLine(line string) error {
	override, err := dispatch.ParseOverride(line)
	if err != nil {
		return err
	}
	var ops []dispatch.Op
	for _, op := range haltool.Ops() {
		vs, _ := haltool.Variants(op)
		ops = append(ops, dispatch.Op{Name: op, Variants: vs})
	}
	_, err = dispatch.Select(dispatch.Host(), ops, override)
	return err
}
