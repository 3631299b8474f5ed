package ministat

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gohal/gohal/lab/internal/hosttool"
)

// verdict is one "Difference at" or "No difference proven" block.
type verdict struct {
	significant bool
	conf        string
	nums        [5]float64 // diff, err, diff%, err%, pooled s
}

var (
	diffRE = regexp.MustCompile(`(?m)^Difference at ([0-9.]+)% confidence\n\t(\S+) \+/- (\S+)\n\t(\S+)% \+/- (\S+)%\n\t\(Student's t, pooled s = (\S+)\)$|^No difference proven at ([0-9.]+)% confidence$`)
)

func parseC(s string) (float64, error) {
	switch s {
	case "nan", "-nan":
		return math.NaN(), nil
	}
	return strconv.ParseFloat(s, 64)
}

// parseVerdicts extracts the comparison blocks of a ministat report.
func parseVerdicts(t *testing.T, out string) []verdict {
	t.Helper()
	var vs []verdict
	for _, m := range diffRE.FindAllStringSubmatch(out, -1) {
		if m[7] != "" {
			vs = append(vs, verdict{conf: m[7]})
			continue
		}
		v := verdict{significant: true, conf: m[1]}
		for i := range v.nums {
			x, err := parseC(m[2+i])
			if err != nil {
				t.Fatalf("parsing %q: %v", m[2+i], err)
			}
			v.nums[i] = x
		}
		vs = append(vs, v)
	}
	return vs
}

// writeAndRun returns what Write prints for samples with opts, and what
// the installed ministat prints run in dir with args.
func writeAndRun(t *testing.T, dir string, args []string, samples []Sample, opts Options) (got, want string) {
	t.Helper()
	cmd := exec.Command(ministatPath, args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ministat %s: %v", strings.Join(args, " "), err)
	}
	var b bytes.Buffer
	if err := Write(&b, samples, opts); err != nil {
		t.Fatalf("Write: %v", err)
	}
	return b.String(), string(out)
}

// agree reports whether a and b agree to within tol relative error; equal
// infinities and two NaNs agree.
func agree(a, b, tol float64) bool {
	if a == b || (math.IsNaN(a) && math.IsNaN(b)) {
		return true
	}
	return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b))
}

// errataCell reports whether ministat's table has a misprint for this
// confidence and df (TestTableOfInstalledMinistat lists them).
func errataCell(conf float64, df int) bool {
	_, ok := ministatErrata[[2]int{df, 5}]
	return conf == 99.5 && ok
}

// TestLiveMinistat compares Write and Compare with the installed ministat on
// random samples: sizes 3 to 130 (so that some comparisons have more than
// 100 degrees of freedom and use the ∞ row), every confidence level, 2 to 7
// samples per report, random widths and -s/-A. Outside the misprinted cells
// of ministat's t table the whole output must be byte-identical; in those
// cells the verdict must match and the numbers that depend on t must agree
// to 7e-4 (the misprints are off by at most 0.003 in 4.785).
func TestLiveMinistat(t *testing.T) {
	hosttool.RequireNative(t, ministatPath) // Debian package ministat
	rng := rand.New(rand.NewPCG(2026, 908))
	sizes := []int{3, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20, 30, 45, 50, 51, 52, 55, 60, 75, 100, 130}
	dir := t.TempDir()
	var reports, comparisons, significant, infRow, identical, errata int
	for run := 0; comparisons < 200; run++ {
		reports++
		nsamples := 2
		if run%5 == 4 {
			nsamples = 3 + rng.IntN(5)
		}
		conf := Confidences[rng.IntN(len(Confidences))]
		mu := math.Pow(10, rng.Float64()*12-4)
		if rng.IntN(6) == 0 {
			mu = -mu
		}
		sd := math.Abs(mu) * (0.001 + rng.Float64()*0.2)
		decimals := -1
		if rng.IntN(3) == 0 {
			// Round to a grid so that values tie and stack in the plot.
			decimals = 2 + rng.IntN(3)
		}
		var samples []Sample
		args := []string{"-c", strconv.FormatFloat(conf, 'g', -1, 64)}
		opts := Options{Confidence: conf}
		if rng.IntN(3) == 0 {
			opts.Width = 20 + rng.IntN(100)
			args = append(args, "-w", strconv.Itoa(opts.Width))
		}
		switch rng.IntN(4) {
		case 0:
			opts.Stack = true
			args = append(args, "-s")
		case 1:
			opts.NoPlot = true
			args = append(args, "-A")
		}
		for i := range nsamples {
			n := sizes[rng.IntN(len(sizes))]
			shift := (rng.Float64()*10 - 5) * sd / math.Sqrt(float64(n))
			if i == 0 {
				shift = 0
			}
			s := Sample{Name: fmt.Sprintf("s%d", i)}
			var file bytes.Buffer
			for range n {
				v := mu + shift + rng.NormFloat64()*sd
				if decimals >= 0 {
					scale := math.Pow(10, float64(decimals)-math.Floor(math.Log10(math.Abs(mu))))
					v = math.Round(v*scale) / scale
				}
				// Shortest round-trip form: ministat's strtod reads
				// back exactly this double.
				file.WriteString(strconv.FormatFloat(v, 'g', -1, 64) + "\n")
				s.Values = append(s.Values, v)
			}
			if err := os.WriteFile(filepath.Join(dir, s.Name), file.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			samples = append(samples, s)
			args = append(args, s.Name)
		}
		got, want := writeAndRun(t, dir, args, samples, opts)
		hitsErrata := false
		for _, s := range samples[1:] {
			if errataCell(conf, len(s.Values)+len(samples[0].Values)-2) {
				hitsErrata = true
			}
		}
		if !hitsErrata {
			if got != want {
				t.Errorf("run %d, ministat %s: output differs\n--- got\n%s--- want\n%s", run, strings.Join(args, " "), got, want)
			} else {
				identical++
			}
		}
		wv, gv := parseVerdicts(t, want), parseVerdicts(t, got)
		if len(wv) != nsamples-1 || len(gv) != len(wv) {
			t.Fatalf("run %d: %d verdicts from ministat, %d from Write, want %d", run, len(wv), len(gv), nsamples-1)
		}
		for i, w := range wv {
			other := samples[i+1]
			df := len(other.Values) + len(samples[0].Values) - 2
			r, err := Compare(samples[0], other, conf)
			if err != nil {
				t.Fatal(err)
			}
			comparisons++
			if df > 100 {
				infRow++
			}
			if errataCell(conf, df) {
				errata++
			}
			g := gv[i]
			if w.significant != g.significant || w.significant != r.Significant || w.conf != g.conf {
				t.Errorf("run %d (%s, df %d, %v%%): ministat significant=%v, Write %v, Compare %v",
					run, other.Name, df, conf, w.significant, g.significant, r.Significant)
				continue
			}
			if !w.significant {
				continue
			}
			significant++
			// Compare's own fields, unrounded, against ministat's
			// six printed digits.
			mine := [5]float64{r.Diff, r.Err, r.DiffPct, r.ErrPct, r.PooledS}
			for k := range mine {
				tol := 5e-4 // four significant digits
				if errataCell(conf, df) && (k == 1 || k == 3) {
					tol = 7e-4
				}
				if !agree(mine[k], w.nums[k], tol) || !agree(g.nums[k], w.nums[k], tol) {
					t.Errorf("run %d (%s, df %d, %v%%): number %d: Compare %v, Write %v, ministat %v",
						run, other.Name, df, conf, k, mine[k], g.nums[k], w.nums[k])
				}
			}
		}
	}
	t.Logf("%d reports, %d comparisons: %d significant, %d with df > 100, %d in misprinted table cells; %d reports byte-identical",
		reports, comparisons, significant, infRow, errata, identical)
	// Guard against a generator that stops covering the interesting cases.
	if significant < 40 || comparisons-significant < 40 || infRow < 20 {
		t.Errorf("poor coverage: %d significant, %d not, %d with df > 100", significant, comparisons-significant, infRow)
	}
}
