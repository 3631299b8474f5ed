package benchfile

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gohal/gohal/lab/internal/hosttool"
	"github.com/gohal/gohal/lab/ministat"
)

const ministatPath = "/usr/bin/ministat"

// TestParseColumnsAgainstMinistat feeds random files built from awkward
// tokens (hex, exponents, inf, signs, comments, CR, junk) to the installed
// ministat -n and to ParseColumns, and requires the same verdict: the same
// invalid line, the same "fewer than 3" refusal, or the same table row.
func TestParseColumnsAgainstMinistat(t *testing.T) {
	hosttool.RequireNative(t, ministatPath) // Debian package ministat
	tokens := []string{
		"1", "2.5", "-3", "+4", "1e3", "1E-2", ".5", "5.", "0x1A", "0x1p-2", "-0X.8",
		"inf", "-Infinity", "1e400", "007", "12", "99.25", "-0",
		"#", "#c", "x", "1.5ms", "0x", "1e", "5#", "--1", "1_0", ",", "",
	}
	seps := []string{" ", "\t", "  ", ",", ", "}
	rng := rand.New(rand.NewPCG(7, 2015))
	dir := t.TempDir()
	path := filepath.Join(dir, "in")
	invalidRE := regexp.MustCompile(`Invalid data on line (\d+) in `)
	var invalid, short, ok int
	for run := range 150 {
		var b strings.Builder
		lines := 1 + rng.IntN(12)
		// Mostly valid files, so that all three outcomes occur.
		junk := rng.IntN(3) == 0
		for range lines {
			fields := rng.IntN(4)
			if !junk && fields == 0 && rng.IntN(2) == 0 {
				fields = 2
			}
			for f := range fields {
				if f > 0 || rng.IntN(4) == 0 {
					b.WriteString(seps[rng.IntN(len(seps))])
				}
				tok := tokens[rng.IntN(18)]
				if junk {
					tok = tokens[rng.IntN(len(tokens))]
				}
				b.WriteString(tok)
			}
			if rng.IntN(4) == 0 {
				b.WriteString(" \r")
			}
			b.WriteByte('\n')
		}
		col := 1 + rng.IntN(2)
		delims := DefaultDelims
		if rng.IntN(3) == 0 {
			delims = ", "
		}
		in := b.String()
		if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(ministatPath, "-n", "-C", strconv.Itoa(col), "-d", delims, path)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		runErr := cmd.Run()
		vals, err := ParseColumns(strings.NewReader(in), path, col, delims)
		desc := func() string { return strconv.Quote(in) + " -C " + strconv.Itoa(col) + " -d " + strconv.Quote(delims) }
		if m := invalidRE.FindStringSubmatch(stderr.String()); m != nil {
			invalid++
			var le *LineError
			if !errors.As(err, &le) || strconv.Itoa(le.Line) != m[1] {
				t.Errorf("run %d %s: ministat: %s; ParseColumns: %v, %v", run, desc(), strings.TrimSpace(stderr.String()), vals, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("run %d %s: ministat accepted it; ParseColumns: %v", run, desc(), err)
			continue
		}
		if strings.Contains(stderr.String(), "must contain at least 3 data points") {
			short++
			if len(vals) >= 3 {
				t.Errorf("run %d %s: ministat found fewer than 3 points; ParseColumns %v", run, desc(), vals)
			}
			continue
		}
		if runErr != nil {
			t.Fatalf("run %d %s: ministat: %v: %s", run, desc(), runErr, stderr.String())
		}
		ok++
		out := strings.Split(stdout.String(), "\n")
		if len(out) < 3 {
			t.Fatalf("ministat output %q", stdout.String())
		}
		var row bytes.Buffer
		if err := ministat.WriteVitals(&row, ministat.Sample{Values: vals}, 0); err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSuffix(row.String(), "\n"); got != out[2] {
			t.Errorf("run %d %s:\nParseColumns gives %s\nministat prints   %s", run, desc(), got, out[2])
		}
	}
	t.Logf("%d files: %d invalid, %d with fewer than 3 points, %d read", 150, invalid, short, ok)
	if invalid < 10 || short < 10 || ok < 10 {
		t.Errorf("poor coverage: %d invalid, %d short, %d ok", invalid, short, ok)
	}
}
