package main

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gohal/gohal/lab/cyclebench"
	"github.com/gohal/gohal/lab/suite"
)

// TestFairnessLegend is issue 10 item 11: a lock table whose fairness
// column reads 100, 173 (one goroutine did all the work) marks those
// cells and says what the figure means and when it is not stable.
func TestFairnessLegend(t *testing.T) {
	cfg, err := parseRunArgs(nil)
	if err != nil {
		t.Fatal(err)
	}
	benchs := suite.Select(suite.Options{Filter: regexp.MustCompile(`^Lock/kind=(mutex|ttas)/threads=[24]/cs=0`), Threads: []int{2, 4}})
	samples := fakeSamples(benchs, func(string) float64 { return 20 })
	for _, bm := range benchs {
		for i := range samples[bm.Name] {
			f := cyclebench.MaxRelStddev(bm.Threads) // one goroutine did all
			if bm.Name == suite.LockName("ttas", 2, 0) {
				f = 12
			}
			samples[bm.Name][i].Metrics[cyclebench.FairnessUnit] = f
		}
	}
	var buf strings.Builder
	if err := writeText(&buf, buildReport(cfg, benchs, samples, time.Second)); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"173*", "100*", "12.0  ", "one goroutine did everything", "Not stable with short samples",
		"* the maximum: one goroutine did its whole share"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "12.0*") {
		t.Errorf("a fairness below the maximum is marked:\n%s", out)
	}
}
