package main

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gohal/gohal/lab/suite"
)

// TestSVGStylesAndAxes is issue 10 item 13: one colour per contestant in
// every panel and the bars, one legend, whiskers on the line panels, cut
// samples marked, no line on an axis, an axis under the bars.
func TestSVGStylesAndAxes(t *testing.T) {
	r := &report{GOOS: "linux", GOARCH: "amd64", Mode: "quick", Count: 10, SampleTime: "20ms", byName: map[string]*benchReport{}}
	mk := func(name string, threads int, ns float64, cut bool) *benchReport {
		b := &benchReport{Name: name, Threads: threads, Baseline: name,
			NsPerOp: summary{Median: jnum(ns), Lo: jnum(ns * 0.9), Hi: jnum(ns * 1.2)}}
		if cut {
			b.Samples = []sample{{Truncated: true}}
		}
		return b
	}
	// Two lock panels listing the kinds in different orders, so that
	// colour by position would differ; ttas at its minimum near mutex.
	r.Sections = []sectionReport{
		{Name: "Lock", Benchmarks: []*benchReport{
			mk("Lock/kind=ttas/threads=1/cs=0", 1, 10, false), mk("Lock/kind=ttas/threads=2/cs=0", 2, 20, false),
			mk("Lock/kind=mutex/threads=1/cs=0", 1, 10.2, false), mk("Lock/kind=mutex/threads=2/cs=0", 2, 21, true),
			mk("Lock/kind=mutex/threads=1/cs=50", 1, 60, false), mk("Lock/kind=mutex/threads=2/cs=50", 2, 70, false),
			mk("Lock/kind=ttas/threads=1/cs=50", 1, 55, false), mk("Lock/kind=ttas/threads=2/cs=50", 2, 65, false),
		}},
		{Name: "Dispatch", Benchmarks: []*benchReport{
			mk("Dispatch/op=fetchadd64/mode=inline", 1, 6, false), mk("Dispatch/op=fetchadd64/mode=api", 1, 7, false),
			mk("Dispatch/op=pause/mode=api", 1, 20, false), mk("Dispatch/op=pause/mode=inline", 1, 21, false),
		}},
	}
	var b bytes.Buffer
	if err := writeSVG(&b, r); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	checkXML(t, b.Bytes())

	// Each series' polyline carries its name as a title: collect the
	// stroke per name, in both panels.
	strokes := map[string]map[string]bool{}
	for _, m := range regexp.MustCompile(`<polyline points="([^"]*)" fill="none" stroke="([^"]+)"[^>]*><title>([^<]+)</title>`).FindAllStringSubmatch(svg, -1) {
		if strokes[m[3]] == nil {
			strokes[m[3]] = map[string]bool{}
		}
		strokes[m[3]][m[2]] = true
	}
	if len(strokes["ttas"]) != 1 || len(strokes["mutex"]) != 1 {
		t.Errorf("colours per kind across panels: %v; want one each", strokes)
	}
	for c := range strokes["ttas"] {
		if strokes["mutex"][c] {
			t.Errorf("ttas and mutex share colour %s", c)
		}
	}
	// Bars: one colour per mode in both ops.
	bars := map[string]map[string]bool{}
	for _, m := range regexp.MustCompile(`<rect [^>]*fill="([^"]+)"><title>([a-z]+):`).FindAllStringSubmatch(svg, -1) {
		if bars[m[2]] == nil {
			bars[m[2]] = map[string]bool{}
		}
		bars[m[2]][m[1]] = true
	}
	if len(bars["api"]) != 1 || len(bars["inline"]) != 1 {
		t.Errorf("bar colours per mode: %v; want one each", bars)
	}
	// One legend naming every contestant once.
	if n := strings.Count(svg, `<g class="legend">`); n != 1 {
		t.Errorf("%d legends, want 1", n)
	}
	legend := svg[strings.Index(svg, `<g class="legend">`):]
	legend = legend[:strings.Index(legend, "</g>")]
	for _, name := range []string{">ttas<", ">mutex<", ">api<", ">inline<", "cut short"} {
		if strings.Count(legend, name) != 1 {
			t.Errorf("legend names %q %d times", name, strings.Count(legend, name))
		}
	}
	// Whiskers on the line panels, and the cut-short point hollow.
	if n := strings.Count(svg, `clip-path="url(#clip`); n != 8 {
		t.Errorf("%d whiskers on the line panels, want 8", n)
	}
	if !strings.Contains(svg, `fill="white" stroke=`) || !strings.Contains(svg, "samples cut short</title>") {
		t.Error("the point with samples cut short is not marked")
	}
	// No line on the x axis: every polyline point lies above the axis
	// (y0 = panel top + panelH − plotBottom) by a margin.
	axes := regexp.MustCompile(`<line x1="[0-9.]+" y1="([0-9.]+)" x2="[0-9.]+" y2="([0-9.]+)" class="ax"/>`).FindAllStringSubmatch(svg, -1)
	if len(axes) == 0 {
		t.Fatal("no axes")
	}
	var axisYs []float64
	for _, a := range axes {
		if a[1] == a[2] {
			y, _ := strconv.ParseFloat(a[1], 64)
			axisYs = append(axisYs, y)
		}
	}
	for _, m := range regexp.MustCompile(`<polyline points="([^"]*)"`).FindAllStringSubmatch(svg, -1) {
		for _, pt := range strings.Fields(m[1]) {
			y, _ := strconv.ParseFloat(pt[strings.Index(pt, ",")+1:], 64)
			for _, ay := range axisYs {
				if d := ay - y; d >= 0 && d < 8 {
					t.Errorf("point %s lies %.1f px above a horizontal axis at %.1f", pt, d, ay)
				}
			}
		}
	}
	// The bars have an axis with a unit.
	if n := strings.Count(svg, `class="lbl">ns/op</text>`); n < 2+2 { // 2 panel y labels are rotated, 2 bar axes
		t.Errorf("%d ns/op axis labels", n)
	}
	if !strings.Contains(svg, `text-anchor="middle" class="lbl">0</text>`) {
		t.Error("bar axes have no 0 tick")
	}
}

func TestLogTicks(t *testing.T) {
	for _, tc := range []struct{ lo, hi float64 }{{8.5, 17}, {1, 1000}, {0.28, 0.42}, {5.6, 10.4}, {40, 130}} {
		ticks := logTicks(tc.lo, tc.hi)
		if len(ticks) < 3 {
			t.Errorf("logTicks(%v, %v) = %v: fewer than 3 ticks", tc.lo, tc.hi, ticks)
		}
		for _, v := range ticks {
			if v < tc.lo || v > tc.hi || len(tickLabel(v)) > 6 {
				t.Errorf("logTicks(%v, %v): tick %v (%q)", tc.lo, tc.hi, v, tickLabel(v))
			}
		}
	}
}

// TestSVGLegendColoursDistinct is issue 21 item 8: with every contestant
// of the registry in one chart, the legend gave twelve colours to 31
// modes and kinds, so mode=api, kind=tas and kind=adder were drawn in one
// colour (kind=casloop even with the same solid line as mode=api). Now every
// legend entry has a style (colour and line pattern) of its own, however many
// contestants this host's registry has: a CPU with rdpid and rdtscp runs more
// variants, hence more modes, than the palette has colours (issue 39 item 4).
func TestSVGLegendColoursDistinct(t *testing.T) {
	r := &report{GOOS: "linux", GOARCH: "amd64", Mode: "full", Count: 10, SampleTime: "20ms", byName: map[string]*benchReport{}}
	benchs := suite.Select(suite.Options{Threads: []int{1, 2}, Full: true})
	for i, bm := range benchs {
		if i == 0 || bm.Section != benchs[i-1].Section {
			r.Sections = append(r.Sections, sectionReport{Name: bm.Section})
		}
		ns := float64(10 + i%7)
		b := &benchReport{Name: bm.Name, Threads: bm.Threads, Baseline: bm.Baseline,
			NsPerOp: summary{Median: jnum(ns), Lo: jnum(ns * 0.9), Hi: jnum(ns * 1.1)}}
		sec := &r.Sections[len(r.Sections)-1]
		sec.Benchmarks = append(sec.Benchmarks, b)
		r.byName[bm.Name] = b
	}
	var b bytes.Buffer
	if err := writeSVG(&b, r); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	legend := svg[strings.Index(svg, `<g class="legend">`):]
	legend = legend[:strings.Index(legend, "</g>")]
	entries := regexp.MustCompile(`<line [^>]*?(stroke="[^"]+"(?: stroke-dasharray="[^"]+")?)[^>]*/><text [^>]*class="lbl">([^<]+)</text>`).FindAllStringSubmatch(legend, -1)
	// The expectation comes from this host's registry, not a fixed count.
	st := newStyles(r)
	if len(entries) < 20 || len(entries) != len(st.order) {
		t.Fatalf("%d legend entries, want every one of the registry's %d contestants", len(entries), len(st.order))
	}
	owner := map[string]string{}
	for _, e := range entries {
		if o, ok := owner[e[1]]; ok {
			t.Errorf("legend entries %s and %s share the style %s", o, e[2], e[1])
		}
		owner[e[1]] = e[2]
	}
}

// TestStylesDistinct gives registries of any size, far past the palette,
// a style per contestant, and the palette's first round solid lines.
func TestStylesDistinct(t *testing.T) {
	for _, n := range []int{1, len(palette) - 1, len(palette), len(palette) + 1, 4*len(palette) + 3, 1000} {
		st := &styles{index: map[string]int{}}
		for i := 0; i < n; i++ {
			k := fmt.Sprintf("mode=m%d", i)
			st.index[k] = i
			st.order = append(st.order, k)
		}
		seen := map[style]string{}
		for _, k := range st.order {
			s := st.of(k)
			if o, ok := seen[s]; ok {
				t.Fatalf("%d contestants: %s and %s share colour %s, dashes %q", n, o, k, s.colour, s.dash)
			}
			seen[s] = k
		}
		if s := st.of(st.order[0]); s.dash != "" {
			t.Errorf("%d contestants: the first is dashed (%q), want solid", n, s.dash)
		}
	}
}
