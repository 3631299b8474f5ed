package benchfile

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
)

// goTestOutput is what `go test -bench . -count 3` prints, plus metadata.
const goTestOutput = `goos: linux
goarch: amd64
pkg: github.com/gohal/gohal/hal
cpu: AMD EPYC 9R45
Unit cycles/op better=lower
BenchmarkAdd/impl=asm-2         	171532446	         6.710 ns/op	        24.5 cycles/op
BenchmarkAdd/impl=asm-2         	179845411	         6.690 ns/op	        24.4 cycles/op
BenchmarkAdd/impl=inline-2      	193581223	         6.200 ns/op	        22.6 cycles/op
BenchmarkAdd/impl=asm-2         	180000000	         6.700 ns/op	        24.5 cycles/op
BenchmarkCopy-2   	   50000	     31000 ns/op	 3000.00 MB/s	       0 B/op	       0 allocs/op
BenchmarkAdd/impl=inline-2
--- BENCH: BenchmarkAdd/impl=inline-2
    add_test.go:12: some log line
PASS
ok  	github.com/gohal/gohal/hal	7.513s
`

func TestParseGoBench(t *testing.T) {
	g, err := ParseGoBench(strings.NewReader(goTestOutput), "new.txt")
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		name, unit string
		values     []float64
		lines      []int
	}
	for _, w := range []want{
		{"Add/impl=asm-2", "ns/op", []float64{6.71, 6.69, 6.7}, []int{6, 7, 9}},
		{"Add/impl=asm-2", "cycles/op", []float64{24.5, 24.4, 24.5}, []int{6, 7, 9}},
		{"Add/impl=inline-2", "ns/op", []float64{6.2}, []int{8}},
		// Units stay as written: not sec/op and B/s as benchfmt
		// tidies them.
		{"Copy-2", "ns/op", []float64{31000}, []int{10}},
		{"Copy-2", "MB/s", []float64{3000}, []int{10}},
		{"Copy-2", "allocs/op", []float64{0}, []int{10}},
	} {
		s := g.Lookup("github.com/gohal/gohal/hal", w.name, w.unit)
		if s == nil {
			t.Errorf("no series %s %s", w.name, w.unit)
			continue
		}
		if !slices.Equal(s.Values, w.values) || !slices.Equal(s.Lines, w.lines) {
			t.Errorf("%s %s: values %v lines %v, want %v %v", w.name, w.unit, s.Values, s.Lines, w.values, w.lines)
		}
	}
	if len(g.Series) != 8 {
		t.Errorf("%d series, want 8", len(g.Series))
	}
	if g.Series[0].Name != "Add/impl=asm-2" || g.Series[0].Unit != "ns/op" {
		t.Errorf("first series %s %s, want the first in the file", g.Series[0].Name, g.Series[0].Unit)
	}
	if want := []UnitInfo{{Unit: "cycles/op", Better: "lower"}}; !slices.Equal(g.Units, want) {
		t.Errorf("units %v, want %v", g.Units, want)
	}
	if g.Lookup("github.com/gohal/gohal/hal", "Add/impl=asm-2", "sec/op") != nil {
		t.Error("found a tidied unit")
	}
}

func TestParseGoBenchErrors(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
	}{
		{"goos: linux\nBenchmarkA 10 5 ns/op\nBenchmarkA 10 abc ns/op\n", "old.txt:3: parsing measurement"},
		{"BenchmarkA x 5 ns/op\n", "old.txt:1: parsing iteration count"},
		{"\nBenchmarkA 10\n", "old.txt:2: missing measurements"},
		{"BenchmarkA 10 5\n", "old.txt:1: missing units"},
		{"Unit ns/op better\n", "old.txt:1: expected key=value"},
		{"Unit ns/op better=lower\nUnit ns/op better=higher\n", "old.txt:2: metadata better of unit ns/op already set to lower"},
		{"BenchmarkA 1 1 ns/op\n" + strings.Repeat("x", maxLine) + "\n", "old.txt:2: line longer than"},
	} {
		_, err := ParseGoBench(strings.NewReader(tc.in), "old.txt")
		var le *LineError
		if !errors.As(err, &le) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%.40q: error %v, want a *LineError starting %q", tc.in, err, tc.want)
		}
	}
}

func TestDetectFormat(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Format
	}{
		{goTestOutput, FormatGoBench},
		{"BenchmarkA 10 5 ns/op\n", FormatGoBench},
		{"# comment\n1\n2\nBenchmarkA 10 5 ns/op\n", FormatGoBench},
		{"Unit ns/op better=lower\n", FormatGoBench},
		{"goos: linux\ngoarch: amd64\n\n", FormatGoBench},
		{"1\n2\n3\n", FormatColumns},
		{"# Benchmark results\n1.5\n2.5\n", FormatColumns},
		{"BenchmarkA\n1\n2\n3\n", FormatColumns}, // go test -v's bare name line alone
		{"goos: linux\n1\n2\n3\n", FormatColumns},
		{"", FormatColumns},
		{"\n\n", FormatColumns},
	} {
		if got := DetectFormat([]byte(tc.in)); got != tc.want {
			t.Errorf("DetectFormat(%.50q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.txt")
	bench := filepath.Join(dir, "bench.txt")
	os.WriteFile(plain, []byte("1\n2\n3\n"), 0o644)
	os.WriteFile(bench, []byte(goTestOutput), 0o644)
	f, err := Load(plain, LoadOptions{})
	if err != nil || f.Format != FormatColumns || !slices.Equal(f.Values, []float64{1, 2, 3}) {
		t.Errorf("Load(plain) = %+v, %v", f, err)
	}
	f, err = Load(bench, LoadOptions{})
	if err != nil || f.Format != FormatGoBench || f.Bench.Lookup("github.com/gohal/gohal/hal", "Copy-2", "MB/s") == nil {
		t.Errorf("Load(bench) = %+v, %v", f, err)
	}
	// Forcing the column format on a Go benchmark file.
	if _, err := Load(bench, LoadOptions{Format: FormatColumns}); err == nil || !strings.Contains(err.Error(), "bench.txt:1: invalid number") {
		t.Errorf("Load(bench, columns) error %v", err)
	}
	missing := filepath.Join(dir, "missing.txt")
	if _, err := Load(missing, LoadOptions{}); !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("Load(missing) error %v, want one naming the file", err)
	}
}

func TestWriteGoBenchRoundTrip(t *testing.T) {
	config := []Config{{"goos", "linux"}, {"goarch", "amd64"}, {"cpu", "AMD EPYC 9R45 96-Core Processor"}, {"halbench-mode", "inlined"}}
	units := []UnitInfo{{Unit: "cycles/op", Better: "lower"}, {Unit: "ops/s", Better: "higher", Assume: "nothing"}, {Unit: "ns/op"}}
	results := []Result{
		{Name: "Add/impl=asm-2", Iters: 171532446, Values: []Value{{6.710000000000001, "ns/op"}, {24.5, "cycles/op"}}},
		{Name: "Add/impl=asm-2", Iters: 1, Values: []Value{{1e-9, "ns/op"}, {1.5e300, "cycles/op"}}},
		{Name: "Lock/kind=ticket/threads=2-2", Iters: 1000, Values: []Value{{0.1 + 0.2, "ops/s"}, {-3, "cycles/op"}}},
		{Name: "X", Iters: 7, Values: []Value{{0, "B/op"}}},
	}
	var buf bytes.Buffer
	if err := WriteGoBench(&buf, config, results, units); err != nil {
		t.Fatal(err)
	}
	r := benchfmt.NewReader(bytes.NewReader(buf.Bytes()), "out")
	var got []*benchfmt.Result
	meta := map[string]string{}
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.SyntaxError:
			t.Fatalf("benchfmt: %v\n%s", rec, buf.String())
		case *benchfmt.UnitMetadata:
			meta[rec.OrigUnit+" "+rec.Key] = rec.Value
		case *benchfmt.Result:
			got = append(got, rec.Clone())
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(results) {
		t.Fatalf("read %d results, want %d:\n%s", len(got), len(results), buf.String())
	}
	for i, res := range got {
		w := results[i]
		if string(res.Name) != w.Name || res.Iters != w.Iters || len(res.Values) != len(w.Values) {
			t.Errorf("result %d: %s %d %v, want %+v", i, res.Name, res.Iters, res.Values, w)
			continue
		}
		for j, v := range res.Values {
			val, unit := v.Value, v.Unit
			if v.OrigUnit != "" {
				val, unit = v.OrigValue, v.OrigUnit
			}
			if val != w.Values[j].Value || unit != w.Values[j].Unit {
				t.Errorf("result %d value %d: %v %s, want %v %s", i, j, val, unit, w.Values[j].Value, w.Values[j].Unit)
			}
		}
		for _, c := range config {
			if v := res.GetConfig(c.Key); v != c.Value {
				t.Errorf("result %d: config %s = %q, want %q", i, c.Key, v, c.Value)
			}
		}
	}
	wantMeta := map[string]string{"cycles/op better": "lower", "ops/s better": "higher", "ops/s assume": "nothing"}
	if len(meta) != len(wantMeta) {
		t.Errorf("unit metadata %v, want %v", meta, wantMeta)
	}
	for k, v := range wantMeta {
		if meta[k] != v {
			t.Errorf("unit metadata %s = %q, want %q", k, meta[k], v)
		}
	}
	// Our own reader agrees.
	g, err := ParseGoBench(bytes.NewReader(buf.Bytes()), "out")
	if err != nil {
		t.Fatal(err)
	}
	if s := g.Lookup("", "Add/impl=asm-2", "ns/op"); s == nil || !slices.Equal(s.Values, []float64{6.710000000000001, 1e-9}) {
		t.Errorf("ParseGoBench read %+v", s)
	}
	if DetectFormat(buf.Bytes()) != FormatGoBench {
		t.Error("written file not detected as gobench")
	}
}

func TestWriteGoBenchErrors(t *testing.T) {
	ok := []Result{{Name: "A", Iters: 1, Values: []Value{{1, "ns/op"}}}}
	for _, tc := range []struct {
		name    string
		config  []Config
		results []Result
		units   []UnitInfo
		want    string
	}{
		{"upper-case key", []Config{{"Goos", "linux"}}, ok, nil, "lower-case letter"},
		{"key with space", []Config{{"go os", "linux"}}, ok, nil, "white space"},
		{"key with colon", []Config{{"a:b", "c"}}, ok, nil, "':'"},
		{"empty value", []Config{{"goos", ""}}, ok, nil, "empty value"},
		{"multi-line value", []Config{{"goos", "a\nb"}}, ok, nil, "spans lines"},
		{"leading blank", []Config{{"goos", " linux"}}, ok, nil, "starts with a blank"},
		{"bad better", nil, ok, []UnitInfo{{Unit: "ns/op", Better: "smaller"}}, `better="smaller"`},
		{"bad assume", nil, ok, []UnitInfo{{Unit: "ns/op", Assume: "normal"}}, `assume="normal"`},
		{"unit with space", nil, ok, []UnitInfo{{Unit: "ns per op", Better: "lower"}}, "white space"},
		{"empty name", nil, []Result{{Name: "", Iters: 1, Values: []Value{{1, "ns/op"}}}}, nil, "benchmark name"},
		{"lower-case name", nil, []Result{{Name: "add", Iters: 1, Values: []Value{{1, "ns/op"}}}}, nil, "lower-case"},
		{"name with space", nil, []Result{{Name: "A B", Iters: 1, Values: []Value{{1, "ns/op"}}}}, nil, "benchmark name"},
		{"zero iters", nil, []Result{{Name: "A", Iters: 0, Values: []Value{{1, "ns/op"}}}}, nil, "0 iterations"},
		{"no values", nil, []Result{{Name: "A", Iters: 1}}, nil, "no values"},
		{"NaN", nil, []Result{{Name: "A", Iters: 1, Values: []Value{{nan(), "ns/op"}}}}, nil, "not finite"},
		{"empty unit", nil, []Result{{Name: "A", Iters: 1, Values: []Value{{1, ""}}}}, nil, "unit"},
	} {
		var b bytes.Buffer
		err := WriteGoBench(&b, tc.config, tc.results, tc.units)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
		if b.Len() > 0 {
			t.Errorf("%s: wrote %q before failing", tc.name, b.String())
		}
	}
}

// TestBenchstatReadsWriteGoBench runs the real benchstat on two files
// written by WriteGoBench.
func TestBenchstatReadsWriteGoBench(t *testing.T) {
	if testing.Short() {
		t.Skip("builds benchstat")
	}
	const benchstatPkg = "golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da"
	bin := t.TempDir()
	gomodcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Skipf("go env: %v", err)
	}
	// Build from the module cache only: offline, and skip if it is not
	// there.
	install := exec.Command("go", "install", benchstatPkg)
	install.Env = append(os.Environ(),
		"GOBIN="+bin,
		"GOPROXY=file://"+filepath.ToSlash(filepath.Join(strings.TrimSpace(string(gomodcache)), "cache", "download")),
		"GOSUMDB=off", "GOFLAGS=")
	if out, err := install.CombinedOutput(); err != nil {
		t.Skipf("cannot build benchstat offline: %v\n%s", err, out)
	}
	config := []Config{{"goos", "linux"}, {"goarch", "amd64"}, {"pkg", "github.com/gohal/gohal/hal"}}
	units := []UnitInfo{{Unit: "cycles/op", Better: "lower"}}
	dir := t.TempDir()
	var files []string
	for i, base := range []float64{6.7, 6.2} {
		var results []Result
		for k := range 6 {
			v := base + float64(k%3)*0.01
			results = append(results, Result{Name: "Add/impl=asm-2", Iters: 1000000, Values: []Value{{v, "ns/op"}, {v * 3.65, "cycles/op"}}})
		}
		var b bytes.Buffer
		if err := WriteGoBench(&b, config, results, units); err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(dir, []string{"old.txt", "new.txt"}[i])
		if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	cmd := exec.Command(filepath.Join(bin, "benchstat"), files...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("benchstat: %v\n%s", err, out)
	}
	text := string(out)
	for _, want := range []string{"sec/op", "cycles/op", "Add/impl=asm-2", "-7.45%", "p=0.002 n=6"} {
		if !strings.Contains(text, want) {
			t.Errorf("benchstat output lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(strings.ToLower(text), "error") || strings.Contains(text, "parsing") {
		t.Errorf("benchstat complained:\n%s", text)
	}
}
