package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/gohal/gohal/lab/benchfile"
	"github.com/gohal/gohal/lab/ministat"
)

const compareUsage = `usage: halbench compare [-c 80|90|95|98|99|99.5] [-C column] [-d delims] [-w width] [-A] [-n] [-s] [-q] [-v] [FILE...]

Compare samples like ministat(1): Student's t test with pooled variance of
every FILE against the first, with ministat's plot and table. With no FILE,
or for a FILE named "-", read standard input (named <stdin>).

A FILE is either ministat's input (numbers, one per line; -C and -d choose
the column) or Go benchmark output (go test -bench, benchstat's format),
detected per file; -C or -d read every FILE as ministat input. For Go
benchmark files compare prints a summary: per package ("pkg:" line) and
unit a table with a row per benchmark found in every FILE, its median in
each FILE, the ratio of each FILE's to the first's and the verdict by
halbench's rule (the Mann–Whitney interval of the ratio excludes 1; see
halbench run -h). With -v, one ministat report per package, benchmark and
unit follows, each package's headed by its "pkg:" line.
Every sample needs at least 3 values, all finite (NaN and Inf are errors);
at most 7 FILEs.

Flags may follow FILEs and single-letter flags combine (-sn, -c95), as with
ministat.

Flags:
  -c level    confidence level in percent (default 95)
  -C column   column of ministat input to read, from 1 (default 1)
  -d delims   column delimiter characters of ministat input (default " \t")
  -w width    plot width in characters (default 74)
  -A          statistics and comparisons only, no plot
  -n          statistics only: no plot, no comparisons
  -s          draw each sample's avg/median/stddev bar on its own line
  -q          omit the legend and the table header
  -v          Go benchmark files: the ministat reports after the summary
`

// valueFlags take an argument; boolFlags do not. Both are the
// single-letter ministat flags that may be combined as with getopt(3).
const (
	valueFlags = "cCdw"
	boolFlags  = "Anqsv"
)

// expandGetopt rewrites getopt(3)-style arguments into what package flag
// parses: "-sn" becomes "-s" "-n", "-c95" becomes "-c" "95" and "-sc95"
// becomes "-s" "-c" "95". Arguments after "--", values of flags and
// "-name=value" forms are left alone; an unknown letter leaves the rest of
// its argument for package flag to reject.
func expandGetopt(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if len(a) < 2 || a[0] != '-' || a[1] == '-' || strings.Contains(a, "=") {
			out = append(out, a)
			continue
		}
	letters:
		for j := 1; j < len(a); j++ {
			switch c := a[j]; {
			case strings.IndexByte(boolFlags, c) >= 0:
				out = append(out, "-"+a[j:j+1])
			case strings.IndexByte(valueFlags, c) >= 0:
				out = append(out, "-"+a[j:j+1])
				if j+1 < len(a) {
					out = append(out, a[j+1:])
				} else if i+1 < len(args) {
					i++
					out = append(out, args[i])
				}
				break letters
			default:
				out = append(out, "-"+a[j:])
				break letters
			}
		}
	}
	return out
}

// usageError is a problem with the command line: it is reported with the
// usage text.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// compareConfig is the parsed command line of halbench compare.
type compareConfig struct {
	opts   ministat.Options
	load   benchfile.LoadOptions
	files  []string
	column bool // -C or -d given: read every file as ministat input
	// verbose (-v) adds the ministat reports to the summary of Go
	// benchmark files.
	verbose bool
}

func parseCompareArgs(args []string) (*compareConfig, error) {
	fs := flag.NewFlagSet("halbench compare", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	conf := fs.String("c", "95", "confidence level in percent: 80, 90, 95, 98, 99 or 99.5")
	column := fs.Int("C", 1, "column of ministat input to read, from 1")
	delims := fs.String("d", benchfile.DefaultDelims, "column delimiter characters of ministat input")
	width := fs.Int("w", ministat.DefaultWidth, "plot width in characters")
	noPlot := fs.Bool("A", false, "statistics and comparisons only, no plot")
	statsOnly := fs.Bool("n", false, "statistics only: no plot, no comparisons")
	stack := fs.Bool("s", false, "draw each sample's avg/median/stddev bar on its own line")
	quiet := fs.Bool("q", false, "omit the legend and the table header")
	verbose := fs.Bool("v", false, "Go benchmark files: the ministat reports after the summary")

	var files []string
	rest := expandGetopt(args)
	for {
		if err := fs.Parse(rest); err != nil {
			return nil, flagError(fs, err)
		}
		consumed := rest[:len(rest)-len(fs.Args())]
		rest = fs.Args()
		if endsWithTerminator(consumed) {
			files = append(files, rest...)
			break
		}
		if len(rest) == 0 {
			break
		}
		// GNU getopt permutes: flags may follow file names.
		files = append(files, rest[0])
		rest = rest[1:]
	}

	cfg := &compareConfig{files: files, verbose: *verbose}
	c, err := strconv.ParseFloat(*conf, 64)
	if err == nil {
		err = ministat.CheckConfidence(c)
	} else {
		err = &ministat.ConfidenceError{}
	}
	if err != nil {
		return nil, &usageError{fmt.Sprintf("-c %s: %v", benchfile.Shorten(*conf, 80), err)}
	}
	cfg.opts.Confidence = c
	if *column < 1 {
		return nil, &usageError{fmt.Sprintf("-C %d: columns are numbered from 1", *column)}
	}
	if *delims == "" {
		return nil, &usageError{"-d: the delimiter string is empty"}
	}
	if *width < 2 {
		return nil, &usageError{fmt.Sprintf("-w %d: the plot needs a width of at least 2", *width)}
	}
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "C" || f.Name == "d" {
			cfg.column = true
		}
	})
	cfg.opts.Width = *width
	cfg.opts.NoPlot = *noPlot
	cfg.opts.StatsOnly = *statsOnly
	cfg.opts.Stack = *stack
	cfg.opts.Quiet = *quiet
	cfg.load = benchfile.LoadOptions{Column: *column, Delims: *delims, Finite: true}
	if cfg.column {
		cfg.load.Format = benchfile.FormatColumns
	}
	if len(files) == 0 {
		cfg.files = []string{"-"} // standard input, as ministat
	}
	if len(files) > ministat.MaxSamples {
		return nil, &usageError{fmt.Sprintf("%d files; at most %d can be compared", len(files), ministat.MaxSamples)}
	}
	return cfg, nil
}

// endsWithTerminator reports whether the arguments package flag consumed
// end with the "--" terminator rather than with "--" as a flag's value.
func endsWithTerminator(consumed []string) bool {
	for i := 0; i < len(consumed); i++ {
		a := consumed[i]
		if a == "--" {
			return i == len(consumed)-1
		}
		name := strings.TrimLeft(a, "-")
		if len(name) == 1 && strings.IndexByte(valueFlags, name[0]) >= 0 {
			i++ // the next argument is the value
		}
	}
	return false
}

// runCompare implements `halbench compare` on the process's standard input;
// it returns the exit status: 0 on success, 2 for usage and input errors, 1
// when writing fails.
func runCompare(args []string, stdout, stderr io.Writer) int {
	return compareMain(args, os.Stdin, stdout, stderr)
}

// stdinName names standard input in the legend and in errors, as ministat
// does.
const stdinName = "<stdin>"

// compareMain is runCompare reading "-" (and no FILE) from stdin.
func compareMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cfg, err := parseCompareArgs(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stderr, compareUsage)
		return 0
	}
	var ue *usageError
	if errors.As(err, &ue) {
		return usageFail(stderr, "compare", benchfile.Shorten(err.Error(), 200))
	}
	if err != nil {
		fmt.Fprintf(stderr, "halbench compare: %v\n", err)
		return 2
	}
	files := make([]*benchfile.File, len(cfg.files))
	for i, path := range cfg.files {
		if path == "-" {
			// A second "-" reads what is left: nothing, as in ministat.
			files[i], err = benchfile.LoadReader(stdin, stdinName, cfg.load)
		} else {
			files[i], err = benchfile.Load(path, cfg.load)
		}
		if err != nil {
			fmt.Fprintf(stderr, "halbench compare: %v\n", err)
			return 2
		}
		if files[i].Format != files[0].Format {
			fmt.Fprintf(stderr, "halbench compare: %s is %s but %s is %s; compare files of one kind\n",
				files[0].Path, describe(files[0].Format), files[i].Path, describe(files[i].Format))
			return 2
		}
	}
	if files[0].Format == benchfile.FormatColumns {
		err = compareColumns(stdout, files, cfg.opts)
	} else {
		err = compareGoBench(stdout, stderr, files, cfg.opts, cfg.verbose)
	}
	var ie *inputError
	switch {
	case errors.As(err, &ie):
		fmt.Fprintf(stderr, "halbench compare: %v\n", err)
		return 2
	case err != nil:
		fmt.Fprintf(stderr, "halbench compare: %v\n", err)
		return 1
	}
	return 0
}

// inputError is a problem with the content of the input files.
type inputError struct{ msg string }

func (e *inputError) Error() string { return e.msg }

func describe(f benchfile.Format) string {
	if f == benchfile.FormatGoBench {
		return "Go benchmark output"
	}
	return "ministat input (numbers in a column)"
}

func tooFew(file, what string, n int) error {
	points := "data points"
	if n == 1 {
		points = "data point"
	}
	return &inputError{fmt.Sprintf("%s: %s%d %s; at least %d are needed", file, what, n, points, ministat.MinSamples)}
}

// checkSample returns an inputError when values are too few for ministat or
// so large that its sums overflow: ministat then prints inf and nan in the
// table and still a verdict, which would be a wrong answer, not a result.
// what names the series in a Go benchmark file ("" for a column file).
func checkSample(file, what string, values []float64) error {
	if len(values) < ministat.MinSamples {
		if what != "" {
			what += " has "
		}
		return tooFew(file, what, len(values))
	}
	st := ministat.Sample{Values: values}.Stats()
	// Finite values give a finite mean and variance unless a sum
	// overflows (a constant sample's tiny negative variance is finite).
	if math.IsInf(st.Mean, 0) || math.IsInf(st.Var, 0) || math.IsNaN(st.Var) {
		if what != "" {
			what += ": "
		}
		return &inputError{fmt.Sprintf("%s: %svalues too large: the sum of the values or of their squares overflows (largest magnitude %g)",
			file, what, math.Max(math.Abs(st.Min), math.Abs(st.Max)))}
	}
	return nil
}

// compareColumns prints one ministat report over all files.
func compareColumns(w io.Writer, files []*benchfile.File, opts ministat.Options) error {
	samples := make([]ministat.Sample, len(files))
	for i, f := range files {
		if err := checkSample(f.Path, "", f.Values); err != nil {
			return err
		}
		samples[i] = ministat.Sample{Name: f.Path, Values: f.Values}
	}
	return ministat.Write(w, samples, opts)
}

// seriesKey names one report of Go benchmark files.
type seriesKey struct{ pkg, name, unit string }

// String names the series in messages: "pkg.BenchmarkName unit", or
// without "pkg." for results before any "pkg:" line.
func (k seriesKey) String() string {
	s := "Benchmark" + k.name + " " + k.unit
	if k.pkg != "" {
		s = k.pkg + "." + s
	}
	return s
}

// compareGoBench prints the summary of the series (package, benchmark,
// unit) present in every file (see writeSummary) and, if verbose, then one
// ministat report per series, in order of first appearance with each
// package's reports together, each headed by the benchmark name and unit
// and separated by a blank line. A "pkg: NAME" line (as in the input, and
// as benchstat heads its tables) precedes the first report of each
// package; benchmarks of the same name in different packages are never
// merged.
func compareGoBench(w, stderr io.Writer, files []*benchfile.File, opts ministat.Options, verbose bool) error {
	for _, f := range files {
		if len(f.Bench.Series) == 0 {
			return &inputError{f.Path + ": no benchmark results"}
		}
	}
	var common []seriesKey
	var skipped []string
	seen := map[seriesKey]bool{}
	pkgOrder := map[string]int{}
	for _, f := range files {
		for _, s := range f.Bench.Series {
			k := seriesKey{s.Pkg, s.Name, s.Unit}
			if seen[k] {
				continue
			}
			seen[k] = true
			var missing []string
			for _, g := range files {
				if g.Bench.Lookup(k.pkg, k.name, k.unit) == nil {
					missing = append(missing, g.Path)
				}
			}
			if len(missing) == 0 {
				if _, ok := pkgOrder[k.pkg]; !ok {
					pkgOrder[k.pkg] = len(pkgOrder)
				}
				common = append(common, k)
			} else {
				skipped = append(skipped, fmt.Sprintf("%v (not in %s)", k, strings.Join(missing, ", ")))
			}
		}
	}
	if len(common) == 0 {
		return &inputError{"no benchmark has a unit present in every file"}
	}
	slices.SortStableFunc(common, func(a, b seriesKey) int { return pkgOrder[a.pkg] - pkgOrder[b.pkg] })
	// Check every series before printing anything.
	for _, k := range common {
		for _, f := range files {
			if err := checkSample(f.Path, k.String(), f.Bench.Lookup(k.pkg, k.name, k.unit).Values); err != nil {
				return err
			}
		}
	}
	if err := writeSummary(w, files, common, opts); err != nil {
		return err
	}
	for i, k := range common {
		if !verbose {
			break
		}
		// A blank line after the summary and between reports.
		if _, err := io.WriteString(w, "\n"); err != nil {
			return err
		}
		if (i == 0 && k.pkg != "") || (i > 0 && k.pkg != common[i-1].pkg) {
			if _, err := io.WriteString(w, strings.TrimSpace("pkg: "+k.pkg)+"\n"); err != nil {
				return err
			}
		}
		if _, err := fmt.Fprintf(w, "Benchmark%s %s\n", k.name, k.unit); err != nil {
			return err
		}
		samples := make([]ministat.Sample, len(files))
		for j, f := range files {
			samples[j] = ministat.Sample{Name: f.Path, Values: f.Bench.Lookup(k.pkg, k.name, k.unit).Values}
		}
		if err := ministat.Write(w, samples, opts); err != nil {
			return err
		}
	}
	for _, s := range skipped {
		fmt.Fprintf(stderr, "halbench compare: skipped %s\n", s)
	}
	return nil
}
