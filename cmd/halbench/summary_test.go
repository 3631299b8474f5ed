package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gohal/gohal/lab/ministat"
)

// TestCompareSummary is issue 21 item 8: compare of two Go benchmark
// files printed only ministat's reports (8,723 lines for two halbench
// runs) and no summary. Now it prints a row per benchmark and unit: both
// medians, the ratio with its interval and the verdict by the report's
// rule, in the unit's sense (MB/s: higher is better); ministat's reports
// only with -v.
func TestCompareSummary(t *testing.T) {
	t.Chdir(filepath.Join("testdata", "compare"))
	var stdout, stderr bytes.Buffer
	if code := runCompare([]string{"sum-old.bench", "sum-new.bench"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	want := `x sum-old.bench
+ sum-new.bench
Medians, and each file against x: the ratio (Hodges–Lehmann) with its 95% Mann–Whitney
interval and the verdict, significant when the interval excludes 1 (~: no difference proven;
no verdict with fewer than 4 samples per side). -v adds ministat's report per row.

pkg: example.com/sum
ns/op   x     +     +/x                    verdict
Fast-2  10    8     0.800× [0.784, 0.820]  -20.0% faster
Same-2  5.05  5.05  1.000× [0.942, 1.061]  ~
Few-2   7.1   9.1   1.282×                 no verdict (fewer than 4 samples)

MB/s    x    +    +/x                    verdict
Fast-2  100  125  1.240× [1.218, 1.263]  +24.0% better
`
	if stdout.String() != want {
		t.Errorf("got\n%s\nwant\n%s", stdout.String(), want)
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr %q", stderr.String())
	}
	// The rows are the report's rule: compareRatio on the same values.
	r := compareRatio([]float64{10.0, 10.2, 10.1, 9.9, 10.0}, []float64{8.0, 8.1, 7.9, 8.2, 8.0}, 0.95)
	if cell, verdict := summaryVerdict(r, "ns/op", "lower"); !strings.Contains(stdout.String(), cell+"  "+verdict) {
		t.Errorf("no %q in the summary", cell+"  "+verdict)
	}

	// -v: the same summary, then one ministat report per row.
	var verbose bytes.Buffer
	if code := runCompare([]string{"-v", "sum-old.bench", "sum-new.bench"}, &verbose, &stderr); code != 0 {
		t.Fatalf("-v: exit %d: %s", code, stderr.String())
	}
	rest, ok := strings.CutPrefix(verbose.String(), want+"\n")
	if !ok {
		t.Fatalf("-v does not start with the summary:\n%s", verbose.String())
	}
	if n := strings.Count(rest, ministat.Header); n != 4 {
		t.Errorf("-v: %d ministat reports, want 4 (3 ns/op, 1 MB/s):\n%s", n, rest)
	}
	for _, h := range []string{"pkg: example.com/sum\nBenchmarkFast-2 ns/op\n", "\nBenchmarkFast-2 MB/s\n", "\nBenchmarkFew-2 ns/op\n"} {
		if !strings.Contains(rest, h) {
			t.Errorf("-v: no %q heading", h)
		}
	}
	// -c sets the summary's level too; -n leaves out the comparisons.
	stdout.Reset()
	if code := runCompare([]string{"-c", "80", "sum-old.bench", "sum-new.bench"}, &stdout, &stderr); code != 0 {
		t.Fatalf("-c 80: exit %d: %s", code, stderr.String())
	}
	r80 := compareRatio([]float64{5.0, 5.2, 4.9, 5.1}, []float64{5.1, 4.9, 5.0, 5.2}, 0.80)
	if c, _ := summaryVerdict(r80, "ns/op", "lower"); !strings.Contains(stdout.String(), "its 80% Mann–Whitney") || !strings.Contains(stdout.String(), "Same-2  5.05  5.05  "+c) {
		t.Errorf("-c 80: want the 80%% interval %s:\n%s", c, stdout.String())
	}
	stdout.Reset()
	if code := runCompare([]string{"-c", "80", "-n", "sum-old.bench", "sum-new.bench"}, &stdout, &stderr); code != 0 {
		t.Fatalf("-n: exit %d: %s", code, stderr.String())
	}
	if strings.Contains(stdout.String(), "verdict") || !strings.Contains(stdout.String(), "Fast-2  10    8\n") {
		t.Errorf("-n:\n%s", stdout.String())
	}
}
