package benchfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Config is one "key: value" configuration line of the Go benchmark format.
type Config struct {
	Key, Value string
}

// Value is one measurement of a result line.
type Value struct {
	Value float64
	Unit  string
}

// Result is one result line: "Benchmark" + Name, the iteration count and
// the measurements.
type Result struct {
	// Name is the benchmark name without the "Benchmark" prefix, which
	// WriteGoBench adds ("Add/impl=asm-2" is written as
	// "BenchmarkAdd/impl=asm-2").
	Name   string
	Iters  int
	Values []Value
}

// WriteGoBench writes the Go benchmark format: the configuration lines in
// the given order, a blank line, a "Unit" metadata line for every UnitInfo
// that states Better or Assume, and the result lines. Numbers are written
// in the shortest form that reads back as the same float64.
//
// It validates everything it writes so that benchfmt reads back exactly
// what was given: configuration keys must start with a lower-case letter
// and contain no space, upper-case letter or colon; values must be
// non-empty, single-line and start with no blank; names and units must be
// non-empty without white space, and names must not start with a
// lower-case letter (go test's rule for BenchmarkXxx); Iters must be positive; values must be
// finite; Better must be "", "lower" or "higher" and Assume "", "nothing"
// or "exact".
func WriteGoBench(w io.Writer, config []Config, results []Result, units []UnitInfo) error {
	for _, c := range config {
		if err := checkConfig(c); err != nil {
			return err
		}
	}
	for _, u := range units {
		if err := checkUnit(u); err != nil {
			return err
		}
	}
	for _, r := range results {
		if err := checkResult(r); err != nil {
			return err
		}
	}
	bw := bufio.NewWriter(w)
	for _, c := range config {
		fmt.Fprintf(bw, "%s: %s\n", c.Key, c.Value)
	}
	if len(config) > 0 {
		bw.WriteByte('\n')
	}
	for _, u := range units {
		if u.Better == "" && u.Assume == "" {
			continue
		}
		bw.WriteString("Unit " + u.Unit)
		if u.Better != "" {
			bw.WriteString(" better=" + u.Better)
		}
		if u.Assume != "" {
			bw.WriteString(" assume=" + u.Assume)
		}
		bw.WriteByte('\n')
	}
	for _, r := range results {
		fmt.Fprintf(bw, "Benchmark%s %d", r.Name, r.Iters)
		for _, v := range r.Values {
			fmt.Fprintf(bw, " %s %s", strconv.FormatFloat(v.Value, 'g', -1, 64), v.Unit)
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

func hasSpace(s string) bool { return strings.IndexFunc(s, unicode.IsSpace) >= 0 }

func checkConfig(c Config) error {
	bad := func(why string) error { return fmt.Errorf("benchfile: config key %q: %s", c.Key, why) }
	if c.Key == "" {
		return bad("empty")
	}
	for i, r := range c.Key {
		if i == 0 && !unicode.IsLower(r) {
			return bad("must start with a lower-case letter")
		}
		if unicode.IsSpace(r) || unicode.IsUpper(r) || r == ':' {
			return bad("must not contain white space, upper-case letters or ':'")
		}
	}
	if c.Value == "" {
		return bad("empty value (an empty value deletes the key in the Go benchmark format)")
	}
	if strings.ContainsAny(c.Value, "\n\r") {
		return bad("value spans lines")
	}
	if c.Value[0] == ' ' || c.Value[0] == '\t' {
		return bad("value starts with a blank")
	}
	return nil
}

func checkUnit(u UnitInfo) error {
	if u.Unit == "" || hasSpace(u.Unit) {
		return fmt.Errorf("benchfile: unit %q: must be non-empty without white space", u.Unit)
	}
	switch u.Better {
	case "", "lower", "higher":
	default:
		return fmt.Errorf("benchfile: unit %s: better=%q, want lower or higher", u.Unit, u.Better)
	}
	switch u.Assume {
	case "", "nothing", "exact":
	default:
		return fmt.Errorf("benchfile: unit %s: assume=%q, want nothing or exact", u.Unit, u.Assume)
	}
	return nil
}

func checkResult(r Result) error {
	if r.Name == "" || hasSpace(r.Name) {
		return fmt.Errorf("benchfile: benchmark name %q: must be non-empty without white space", r.Name)
	}
	if first, _ := utf8.DecodeRuneInString(r.Name); unicode.IsLower(first) {
		// go test requires it, and benchstat's format spec too.
		return fmt.Errorf("benchfile: benchmark name %q: must not start with a lower-case letter", r.Name)
	}
	if r.Iters <= 0 {
		return fmt.Errorf("benchfile: Benchmark%s: %d iterations; need at least 1", r.Name, r.Iters)
	}
	if len(r.Values) == 0 {
		return errors.New("benchfile: Benchmark" + r.Name + ": no values")
	}
	for _, v := range r.Values {
		if v.Unit == "" || hasSpace(v.Unit) {
			return fmt.Errorf("benchfile: Benchmark%s: unit %q: must be non-empty without white space", r.Name, v.Unit)
		}
		if math.IsNaN(v.Value) || math.IsInf(v.Value, 0) {
			return fmt.Errorf("benchfile: Benchmark%s: %v %s is not finite", r.Name, v.Value, v.Unit)
		}
	}
	return nil
}
