package main

import (
	"encoding/json"
	"io"
	"math"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/gohal/gohal/lab/cyclebench"
	"github.com/gohal/gohal/lab/suite"
)

// confidence is the level of every interval and test in the report, in
// percent.
const confidence = 95

// jnum is a float64 that encodes NaN and infinities as JSON null.
type jnum float64

// MarshalJSON implements json.Marshaler.
func (x jnum) MarshalJSON() ([]byte, error) {
	f := float64(x)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}

// report is everything halbench measured and concluded; -json prints it.
type report struct {
	Tool       string  `json:"tool"`
	GoVersion  string  `json:"go_version"`
	GOOS       string  `json:"goos"`
	GOARCH     string  `json:"goarch"`
	GOMAXPROCS int     `json:"gomaxprocs"`
	NumCPU     int     `json:"num_cpu"`
	Mode       string  `json:"mode"`
	Count      int     `json:"count"`
	SampleTime string  `json:"sample_time"`
	Threads    []int   `json:"threads"`
	Filter     string  `json:"filter,omitempty"`
	Confidence float64 `json:"confidence"`
	// Rule names the one rule that decides "significant" everywhere.
	Rule string `json:"significance_rule"`
	// Machine is what `halbench features -json` prints.
	Machine featuresReport `json:"machine"`
	// Answers are the registry's questions answered by the rule: the
	// first screen.
	Answers  []*questionAnswer `json:"answers"`
	Sections []sectionReport   `json:"sections"`
	Elapsed  float64           `json:"elapsed_seconds"`

	byName map[string]*benchReport
}

type legendJSON struct {
	Key  string `json:"key"`
	Text string `json:"text"`
}

// sectionReport is one section's table.
type sectionReport struct {
	Name       string         `json:"name"`
	Title      string         `json:"title"`
	Doc        string         `json:"doc"`
	Legends    []legendJSON   `json:"legends,omitempty"`
	Benchmarks []*benchReport `json:"benchmarks"`
}

// summary describes one metric of one benchmark over its samples.
type summary struct {
	Median jnum `json:"median"`
	// Lo and Hi are the 95% confidence interval of the median from
	// order statistics (null for fewer than 6 samples).
	Lo  jnum `json:"lo"`
	Hi  jnum `json:"hi"`
	Min jnum `json:"min"`
	Max jnum `json:"max"`
}

func summarize(xs []float64) summary {
	lo, hi, ok := medianCI(xs, confidence/100.0)
	if !ok {
		lo, hi = math.NaN(), math.NaN()
	}
	return summary{Median: jnum(median(xs)), Lo: jnum(lo), Hi: jnum(hi),
		Min: jnum(slices.Min(xs)), Max: jnum(slices.Max(xs))}
}

// benchReport is one benchmark's row.
type benchReport struct {
	Name     string `json:"name"`
	Threads  int    `json:"threads"`
	Baseline string `json:"baseline"`
	// NsPerOp and CyclesPerOp summarize the samples' ns/op and
	// cycles/op; Metrics the other metrics the body reported.
	NsPerOp     summary            `json:"ns_per_op"`
	CyclesPerOp summary            `json:"cycles_per_op"`
	Metrics     map[string]summary `json:"metrics,omitempty"`
	// Ratio is ns/op over the baseline's (Hodges–Lehmann estimate) with
	// its interval by the report's one rule; nil for a baseline or when
	// the baseline was not run.
	Ratio   *ratioJSON `json:"ratio,omitempty"`
	Samples []sample   `json:"samples"`
	// WallSeconds is the wall time spent on this benchmark, warm-up and
	// testing.Benchmark's overheads included.
	WallSeconds float64 `json:"wall_seconds"`
}

type ratioJSON struct {
	Ratio       jnum `json:"ratio"`
	Lo          jnum `json:"lo"`
	Hi          jnum `json:"hi"`
	Significant bool `json:"significant"`
}

// ratioOf is other's ns/op over base's by the report's one rule
// (compareRatio), with its interval.
func ratioOf(base, other []float64) *ratioJSON {
	rc := compareRatio(base, other, confidence/100.0)
	return &ratioJSON{jnum(rc.Ratio), jnum(rc.Lo), jnum(rc.Hi), rc.Significant}
}

// cyclesOf summarizes ss's cycles/op: NaN throughout where the body
// reported none.
func cyclesOf(ss []sample) summary {
	if c := metricOf(ss, cyclebench.CyclesUnit); len(c) > 0 {
		return summarize(c)
	}
	nan := jnum(math.NaN())
	return summary{nan, nan, nan, nan, nan}
}

// truncated returns how many samples were cut short by the run cap.
func (b *benchReport) truncated() int {
	n := 0
	for _, s := range b.Samples {
		if s.Truncated {
			n++
		}
	}
	return n
}

// ns returns the samples' ns/op values.
func (b *benchReport) ns() []float64 { return nsOf(b.Samples) }

// buildReport computes the statistics of the samples.
func buildReport(cfg *runConfig, benchs []suite.Benchmark, samples map[string][]sample, elapsed time.Duration) *report {
	r := &report{Tool: "halbench", GoVersion: runtime.Version(), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH,
		GOMAXPROCS: gomaxprocs(), NumCPU: runtime.NumCPU(), Mode: "quick", Count: cfg.count,
		SampleTime: cfg.sampleTime.String(), Threads: cfg.threads, Confidence: confidence, Rule: ruleName,
		Machine: buildFeaturesReport(), Elapsed: elapsed.Seconds(), byName: map[string]*benchReport{}}
	if cfg.full {
		r.Mode = "full"
	}
	if cfg.filter != nil {
		r.Filter = cfg.filter.String()
	}
	for _, bm := range benchs {
		ss := samples[bm.Name]
		if len(ss) == 0 {
			continue
		}
		br := &benchReport{Name: bm.Name, Threads: bm.Threads, Baseline: bm.Baseline, Samples: ss}
		br.NsPerOp, br.CyclesPerOp = summarize(nsOf(ss)), summarize(metricOf(ss, cyclebench.CyclesUnit))
		units := map[string]bool{}
		for _, s := range ss {
			for u := range s.Metrics {
				if u != cyclebench.CyclesUnit {
					units[u] = true
				}
			}
		}
		for u := range units {
			if br.Metrics == nil {
				br.Metrics = map[string]summary{}
			}
			br.Metrics[u] = summarize(metricOf(ss, u))
		}
		r.byName[bm.Name] = br
		if len(r.Sections) == 0 || r.Sections[len(r.Sections)-1].Name != bm.Section {
			s, _ := suite.LookupSection(bm.Section)
			sr := sectionReport{Name: bm.Section, Title: s.Title, Doc: s.Doc}
			for _, l := range suite.Legends(bm.Section) {
				sr.Legends = append(sr.Legends, legendJSON{l.Key, l.Text})
			}
			r.Sections = append(r.Sections, sr)
		}
		sec := &r.Sections[len(r.Sections)-1]
		sec.Benchmarks = append(sec.Benchmarks, br)
	}
	for i := range r.Sections {
		groupByBaseline(r.Sections[i].Benchmarks)
	}
	for _, br := range r.byName {
		if base := r.byName[br.Baseline]; base != nil && base != br {
			br.Ratio = ratioOf(base.ns(), br.ns())
		}
	}
	r.Answers = answerQuestions(cfg.threads, func(_ suite.Question, w suite.Workload, c suite.Contestant, threads int) []float64 {
		if b := r.byName[w.Bench(c.Kind, threads)]; b != nil {
			return b.ns()
		}
		return nil
	})
	return r
}

// brand is the CPU's brand string, or "unknown CPU".
func (r *report) brand() string {
	if f := r.Machine.Features.Features; f != nil && f.Brand != "" {
		return f.Brand
	}
	return "unknown CPU"
}

// groupByBaseline reorders a section's rows, stably, so that the rows
// compared with one baseline are adjacent, in the order their groups first
// appear: the contended modes of an op at 2 goroutines together rather
// than every thread count of one mode together.
func groupByBaseline(bs []*benchReport) {
	first := map[string]int{}
	for i, b := range bs {
		if _, ok := first[b.Baseline]; !ok {
			first[b.Baseline] = i
		}
	}
	sort.SliceStable(bs, func(i, j int) bool { return first[bs[i].Baseline] < first[bs[j].Baseline] })
}

// writeJSONValue prints v as indented JSON.
func writeJSONValue(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
