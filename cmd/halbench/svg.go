package main

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gohal/gohal/lab/suite"
)

// The -svg charts: a self-contained SVG drawn by hand.
//
// Every contestant (a binding mode, a lock or counter kind) has one colour
// and line style wherever it appears, fixed by its place in the whole
// benchmark registry (so also the same from run to run and filter to
// filter), and one legend at the top names them.
//
// The contention-scaling panels plot median ns/op against the number of
// goroutines for every group of threaded benchmarks that differ only in
// their kind or mode (one line per kind or mode), both axes logarithmic,
// with the 95% interval of each median as a whisker (6 samples or more)
// and a hollow marker where samples were cut short. The y range leaves a
// margin above and below the data, so that no line lies on an axis. The
// mode-comparison bars show, per op, the median ns/op of each binding mode
// on one goroutine with the 95% interval of the median as a whisker; each
// op has its own linear scale, drawn as an axis under its bars.

const (
	svgWidth   = 960
	panelW     = 310
	panelH     = 240
	panelCols  = 3
	plotLeft   = 48 // inside a panel: room for y labels
	plotRight  = 18
	plotTop    = 28
	plotBottom = 34
	barRowH    = 16
	barLabelW  = 150
	barMaxW    = 560
	legendItem = 110 // width of one legend entry
)

// palette holds the contestants' colours: the twelve first are the
// strongest, then tab20's light tones and tab20b's dark ones, each far from
// the others. The registry's size depends on the host (a CPU feature adds
// variants, hence modes), so the palette cannot be sized to it: past the
// palette, colours repeat with a line pattern of their own (dashes), which
// keeps every legend entry distinct (TestStylesDistinct).
var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
	"#e377c2", "#17becf", "#7f7f7f", "#bcbd22", "#393b79", "#e7969c",
	"#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94",
	"#f7b6d2", "#9edae5", "#dbdb8d", "#637939", "#8c6d31", "#843c39",
	"#7b4173", "#5254a3", "#8ca252", "#bd9e39", "#ad494a", "#a55194",
	"#e6550d", "#31a354"}

// seriesKeys are the name elements that tell contestants apart in a chart.
var seriesKeys = []string{"kind", "mode"}

// style is a contestant's colour and line.
type style struct {
	colour string
	dash   string // stroke-dasharray, "" for solid
}

// styles assigns every contestant of the registry its style: contestants
// are numbered per key in registry order, modes first, and those of this
// report that the registry lacks follow.
type styles struct {
	index map[string]int // "mode=api" → position
	order []string       // the same, in order
}

func newStyles(r *report) *styles {
	st := &styles{index: map[string]int{}}
	add := func(name string) {
		for _, k := range seriesKeys {
			if v, _ := cutElement(name, k); v != "" {
				e := k + "=" + v
				if _, ok := st.index[e]; !ok {
					st.index[e] = len(st.order)
					st.order = append(st.order, e)
				}
				return
			}
		}
	}
	var modes, kinds []string
	for _, bm := range suite.Select(suite.Options{Threads: []int{1}, Full: true}) {
		if v, _ := cutElement(bm.Name, "mode"); v != "" {
			modes = append(modes, bm.Name)
		} else {
			kinds = append(kinds, bm.Name)
		}
	}
	for _, n := range append(modes, kinds...) {
		add(n)
	}
	for _, s := range r.Sections {
		for _, b := range s.Benchmarks {
			add(b.Name)
		}
	}
	return st
}

// of returns the style of a contestant ("mode=api").
func (st *styles) of(key string) style {
	i, ok := st.index[key]
	if !ok {
		return style{colour: "#000"}
	}
	return style{colour: palette[i%len(palette)], dash: dashPattern(i / len(palette))}
}

// dashes are the line patterns of the palette's first rounds: solid, then
// dashed, dotted and dash-dotted, each told apart at a glance.
var dashes = []string{"", "6,3", "2,2", "8,3,2,3"}

// dashPattern returns the stroke-dasharray of the palette's round r, a
// pattern no other round has, however many rounds the registry needs.
func dashPattern(r int) string {
	if r < len(dashes) {
		return dashes[r]
	}
	// Six numbers, unlike every pattern above, and r makes each its own.
	return fmt.Sprintf("%d,3,2,3,2,3", r)
}

func (s style) strokeAttrs() string {
	a := fmt.Sprintf(`stroke="%s"`, s.colour)
	if s.dash != "" {
		a += fmt.Sprintf(` stroke-dasharray="%s"`, s.dash)
	}
	return a
}

type point struct {
	x, y   float64
	lo, hi float64 // the 95% interval of the median; NaN when unknown
	cut    bool    // some samples were cut short
}

type series struct {
	label  string // the value, "api"
	key    string // the element, "mode=api"
	points []point
}

type panel struct {
	title  string
	series []*series
}

type barGroup struct {
	title string
	bars  []bar
}

type bar struct {
	label        string
	key          string
	ns, lo, hi   float64
	isBaseline   bool
	significance string
}

// scalingPanels groups the threaded benchmarks of r into panels.
func scalingPanels(r *report) []*panel {
	var panels []*panel
	byKey := map[string]*panel{}
	for _, s := range r.Sections {
		for _, b := range s.Benchmarks {
			_, rest := cutElement(b.Name, "threads")
			if rest == b.Name {
				continue
			}
			label, key := "", ""
			for _, k := range seriesKeys {
				if v, rr := cutElement(rest, k); v != "" {
					label, key, rest = v, k+"="+v, rr
					break
				}
			}
			if label == "" {
				label = rest
			}
			p := groupOf(byKey, &panels, rest, func() *panel { return &panel{title: strings.ReplaceAll(rest, "/", " ")} })
			var se *series
			for _, x := range p.series {
				if x.label == label {
					se = x
				}
			}
			if se == nil {
				se = &series{label: label, key: key}
				p.series = append(p.series, se)
			}
			if y := float64(b.NsPerOp.Median); y > 0 && !math.IsInf(y, 0) {
				se.points = append(se.points, point{x: float64(b.Threads), y: y,
					lo: float64(b.NsPerOp.Lo), hi: float64(b.NsPerOp.Hi), cut: b.truncated() > 0})
			}
		}
	}
	// Keep panels with at least two thread counts.
	out := panels[:0]
	for _, p := range panels {
		xs := map[float64]bool{}
		for _, s := range p.series {
			for _, pt := range s.points {
				xs[pt.x] = true
			}
			slices.SortFunc(s.points, func(a, b point) int { return int(a.x - b.x) })
		}
		if len(xs) >= 2 {
			out = append(out, p)
		}
	}
	return out
}

// modeBars groups the single-goroutine benchmarks that have a mode element
// by the rest of their name (the op).
func modeBars(r *report) []*barGroup {
	var groups []*barGroup
	byKey := map[string]*barGroup{}
	for _, s := range r.Sections {
		for _, b := range s.Benchmarks {
			if b.Threads != 1 || strings.Contains(b.Name, "/threads=") {
				continue
			}
			mode, rest := cutElement(b.Name, "mode")
			if ns := float64(b.NsPerOp.Median); mode == "" || !(ns > 0) || math.IsInf(ns, 0) {
				continue
			}
			g := groupOf(byKey, &groups, rest, func() *barGroup { return &barGroup{title: strings.ReplaceAll(rest, "/", " ")} })
			br := bar{label: mode, key: "mode=" + mode, ns: float64(b.NsPerOp.Median), lo: float64(b.NsPerOp.Lo), hi: float64(b.NsPerOp.Hi),
				isBaseline: b.Baseline == b.Name}
			if b.Ratio != nil {
				br.significance = ratioCell(*b.Ratio)
			}
			g.bars = append(g.bars, br)
		}
	}
	return groups
}

// writeSVG writes the charts of r to w as one SVG document.
func writeSVG(w io.Writer, r *report) error {
	panels := scalingPanels(r)
	groups := modeBars(r)
	st := newStyles(r)
	var body bytes.Buffer
	fmt.Fprintf(&body, `<text x="16" y="24" class="h1">halbench: %s — %s/%s, GOMAXPROCS %d</text>`+"\n",
		esc(r.brand()), esc(r.GOOS), esc(r.GOARCH), r.GOMAXPROCS)
	fmt.Fprintf(&body, `<text x="16" y="40" class="lbl">%s run: %d samples of %s per benchmark, interleaved after a warm-up</text>`+"\n",
		esc(r.Mode), r.Count, esc(r.SampleTime))
	y := drawLegend(&body, st, panels, groups, 50)
	if len(panels) > 0 {
		fmt.Fprintf(&body, `<text x="16" y="%d" class="h2">Contention scaling: median ns/op against goroutines (log–log); whiskers: 95%% interval of the median</text>`+"\n", y+16)
		y += 28
		for i, p := range panels {
			px := 16 + (i%panelCols)*panelW
			py := y + (i/panelCols)*panelH
			drawPanel(&body, st, p, px, py)
		}
		y += ((len(panels) + panelCols - 1) / panelCols) * panelH
	}
	if len(groups) > 0 {
		y += 12
		fmt.Fprintf(&body, `<text x="16" y="%d" class="h2">Binding modes: median ns/op on one goroutine, whiskers: 95%% interval of the median (scale per op)</text>`+"\n", y+16)
		y += 32
		for _, g := range groups {
			y = drawBars(&body, st, g, y)
		}
	}
	height := y + 16
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, `<?xml version="1.0" encoding="UTF-8"?>`+"\n")
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="11">`+"\n",
		svgWidth, height, svgWidth, height)
	bw.WriteString(`<style>.h1{font-size:15px;font-weight:bold}.h2{font-size:13px;font-weight:bold}.t{font-size:12px;font-weight:bold}.ax{stroke:#444;stroke-width:1}.grid{stroke:#ddd;stroke-width:1}.lbl{fill:#333}</style>` + "\n")
	fmt.Fprintf(bw, `<rect width="%d" height="%d" fill="white"/>`+"\n", svgWidth, height)
	bw.Write(body.Bytes())
	bw.WriteString("</svg>\n")
	return bw.Flush()
}

// drawLegend draws the one legend, a row per key (mode, kind) listing the
// contestants drawn, from y on, and returns the next free y.
func drawLegend(w io.Writer, st *styles, panels []*panel, groups []*barGroup, y int) int {
	used := map[string]bool{}
	cut := false
	for _, p := range panels {
		for _, s := range p.series {
			used[s.key] = true
			for _, pt := range s.points {
				cut = cut || pt.cut
			}
		}
	}
	for _, g := range groups {
		for _, b := range g.bars {
			used[b.key] = true
		}
	}
	fmt.Fprintln(w, `<g class="legend">`)
	for _, k := range seriesKeys {
		x := 16 + 44
		row := false
		for _, e := range st.order {
			if !used[e] || !strings.HasPrefix(e, k+"=") {
				continue
			}
			if !row {
				y += 16
				fmt.Fprintf(w, `<text x="16" y="%d" class="t">%s</text>`, y+4, esc(k))
				row = true
			}
			if x+legendItem > svgWidth {
				x = 16 + 44
				y += 16
			}
			s := st.of(e)
			fmt.Fprintf(w, `<line x1="%d" y1="%d" x2="%d" y2="%d" %s stroke-width="3"/><text x="%d" y="%d" class="lbl">%s</text>`+"\n",
				x, y, x+22, y, s.strokeAttrs(), x+26, y+4, esc(strings.TrimPrefix(e, k+"=")))
			x += legendItem
		}
	}
	if cut {
		y += 16
		fmt.Fprintf(w, `<circle cx="%d" cy="%d" r="4" fill="white" stroke="#333" stroke-width="1.5"/><text x="%d" y="%d" class="lbl">samples cut short by the run cap (a lock convoy): ns/op over the operations done</text>`+"\n",
			16+55, y, 16+66, y+4)
	}
	fmt.Fprintln(w, "</g>")
	return y + 14
}

// logRange returns a y range for values from lo to hi on a log axis,
// with a margin of an eighth of the span (at least 10%) on both sides, so
// that no line lies on an axis.
func logRange(lo, hi float64) (float64, float64) {
	span := math.Log10(hi) - math.Log10(lo)
	m := math.Max(span/8, math.Log10(1.1))
	return lo / math.Pow(10, m), hi * math.Pow(10, m)
}

// logTicks returns 1-2-5 ticks within [lo, hi], or 1…9 ticks when that
// gives fewer than three.
func logTicks(lo, hi float64) []float64 {
	for _, ms := range [][]float64{{1, 2, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9}} {
		var out []float64
		for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
			for _, m := range ms {
				v := m * math.Pow(10, e)
				if v >= lo && v <= hi {
					out = append(out, v)
				}
			}
		}
		if len(out) >= 3 {
			return out
		}
	}
	// A narrow range: evenly spaced round values.
	step := linearStep(hi-lo) / 2
	var out []float64
	for k := math.Ceil(lo / step); k*step <= hi; k++ {
		out = append(out, k*step)
	}
	return out
}

func drawPanel(w io.Writer, st *styles, p *panel, px, py int) {
	x0, x1 := float64(px+plotLeft), float64(px+panelW-plotRight)
	y0, y1 := float64(py+panelH-plotBottom), float64(py+plotTop)
	xmin, xmax := math.Inf(1), math.Inf(-1)
	ymin, ymax := math.Inf(1), math.Inf(-1)
	var xs []float64
	for _, s := range p.series {
		for _, pt := range s.points {
			xmin, xmax = math.Min(xmin, pt.x), math.Max(xmax, pt.x)
			ymin, ymax = math.Min(ymin, pt.y), math.Max(ymax, pt.y)
			if !slices.Contains(xs, pt.x) {
				xs = append(xs, pt.x)
			}
		}
	}
	ylo, yhi := logRange(ymin, ymax)
	sx := func(x float64) float64 {
		if xmax == xmin {
			return (x0 + x1) / 2
		}
		// Inset the outermost thread counts from the axes too.
		pad := (x1 - x0) * 0.05
		return x0 + pad + (math.Log2(x)-math.Log2(xmin))/(math.Log2(xmax)-math.Log2(xmin))*(x1-x0-2*pad)
	}
	sy := func(y float64) float64 {
		return y0 - (math.Log10(y)-math.Log10(ylo))/(math.Log10(yhi)-math.Log10(ylo))*(y0-y1)
	}
	// The range follows the medians; whiskers reaching beyond it are
	// clipped at the plot's edge, so that one noisy point does not
	// flatten every line.
	clip := fmt.Sprintf("clip%d_%d", px, py)
	fmt.Fprintf(w, `<g><clipPath id="%s"><rect x="%.1f" y="%.1f" width="%.1f" height="%.1f"/></clipPath><text x="%d" y="%d" class="t">%s</text>`+"\n",
		clip, x0, y1, x1-x0, y0-y1, px+plotLeft, py+16, esc(p.title))
	for _, t := range logTicks(ylo, yhi) {
		fmt.Fprintf(w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" class="grid"/>`, x0, sy(t), x1, sy(t))
		fmt.Fprintf(w, `<text x="%.1f" y="%.1f" text-anchor="end" class="lbl">%s</text>`+"\n", x0-4, sy(t)+4, esc(tickLabel(t)))
	}
	slices.Sort(xs)
	for _, x := range xs {
		fmt.Fprintf(w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" class="grid"/>`, sx(x), y0, sx(x), y1)
		fmt.Fprintf(w, `<text x="%.1f" y="%.1f" text-anchor="middle" class="lbl">%g</text>`+"\n", sx(x), y0+14, x)
	}
	fmt.Fprintf(w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" class="ax"/><line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" class="ax"/>`+"\n",
		x0, y0, x1, y0, x0, y0, x0, y1)
	fmt.Fprintf(w, `<text x="%.1f" y="%.1f" text-anchor="middle" class="lbl">goroutines</text>`+"\n", (x0+x1)/2, y0+28)
	fmt.Fprintf(w, `<text transform="translate(%d,%.1f) rotate(-90)" text-anchor="middle" class="lbl">ns/op</text>`+"\n", px+10, (y0+y1)/2)
	for _, s := range p.series {
		sty := st.of(s.key)
		var pts []string
		for _, pt := range s.points {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", sx(pt.x), sy(pt.y)))
		}
		fmt.Fprintf(w, `<polyline points="%s" fill="none" %s stroke-width="2"><title>%s</title></polyline>`, strings.Join(pts, " "), sty.strokeAttrs(), esc(s.label))
		for _, pt := range s.points {
			if pt.lo > 0 && pt.hi >= pt.lo && !math.IsInf(pt.hi, 0) {
				fmt.Fprintf(w, `<path d="M%.1f %.1fV%.1fM%.1f %.1fh6M%.1f %.1fh6" stroke="%s" stroke-width="1" fill="none" clip-path="url(#%s)"/>`,
					sx(pt.x), sy(pt.lo), sy(pt.hi), sx(pt.x)-3, sy(pt.lo), sx(pt.x)-3, sy(pt.hi), sty.colour, clip)
			}
			fill, r, note := sty.colour, 2.5, ""
			if pt.cut {
				fill, r, note = "white", 4, ", samples cut short"
			}
			fmt.Fprintf(w, `<circle cx="%.1f" cy="%.1f" r="%.1f" fill="%s" stroke="%s" stroke-width="1.5"><title>%s, %g goroutines: %s ns/op%s</title></circle>`,
				sx(pt.x), sy(pt.y), r, fill, sty.colour, esc(s.label), pt.x, num(pt.y), note)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "</g>")
}

// tickLabel prints a tick value with at most six significant digits, so
// that accumulated rounding (10.600000000000001) does not show.
func tickLabel(v float64) string {
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// linearStep returns a 1-2-5 step that cuts [0, top] into 3 to 7 parts.
func linearStep(top float64) float64 {
	step := math.Pow(10, math.Floor(math.Log10(top)))
	for _, m := range []float64{0.1, 0.2, 0.5, 1, 2, 5} {
		if s := step * m; top/s <= 7 {
			return s
		}
	}
	return step * 10
}

// drawBars draws one op's modes from y on, with a linear ns/op axis under
// them, and returns the next free y.
func drawBars(w io.Writer, st *styles, g *barGroup, y int) int {
	fmt.Fprintf(w, `<g><text x="16" y="%d" class="t">%s</text>`+"\n", y+12, esc(g.title))
	y += 18
	// The scale follows the medians, with room for the whiskers up to a
	// quarter beyond the largest; a longer whisker ends in an arrow.
	top := 0.0
	for _, b := range g.bars {
		top = math.Max(top, b.ns)
	}
	if top <= 0 {
		top = 1
	}
	whiskerEnd := top * 1.25
	step := linearStep(whiskerEnd)
	top = math.Ceil(whiskerEnd/step) * step
	x0 := 16.0 + barLabelW
	scale := float64(barMaxW) / top
	y0 := y
	for _, b := range g.bars {
		c := st.of(b.key).colour
		by := float64(y)
		fmt.Fprintf(w, `<text x="%.1f" y="%.1f" text-anchor="end" class="lbl">%s</text>`, x0-6, by+11, esc(b.label))
		fmt.Fprintf(w, `<rect x="%.1f" y="%.1f" width="%.1f" height="%d" fill="%s"><title>%s: %s ns/op</title></rect>`,
			x0, by+2, math.Max(b.ns*scale, 0.5), barRowH-4, c, esc(b.label), num(b.ns))
		end := b.ns
		if !math.IsNaN(b.lo) && !math.IsNaN(b.hi) {
			hi := math.Min(b.hi, top)
			mid := by + float64(barRowH)/2
			fmt.Fprintf(w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#000" stroke-width="1.2"/>`,
				x0+b.lo*scale, mid, x0+hi*scale, mid)
			if b.hi > top {
				fmt.Fprintf(w, `<path d="M%.1f %.1fl-6 -4v8z" fill="#000"><title>interval up to %s ns</title></path>`, x0+hi*scale, mid, num(b.hi))
			}
			end = math.Max(end, hi)
		}
		note := num(b.ns) + " ns"
		if b.isBaseline {
			note += "  baseline"
		} else if b.significance != "" {
			note += "  " + b.significance
		}
		fmt.Fprintf(w, `<text x="%.1f" y="%.1f" class="lbl">%s</text>`+"\n", x0+end*scale+6, by+11, esc(note))
		y += barRowH
	}
	// The axis: a line, 1-2-5 ticks, and the unit.
	ay := float64(y) + 2
	fmt.Fprintf(w, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%.1f" class="ax"/><line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" class="ax"/>`+"\n",
		x0, y0, x0, ay, x0, ay, x0+top*scale, ay)
	for k := 0.0; k*step <= top*(1+1e-9); k++ {
		v := k * step
		x := x0 + v*scale
		fmt.Fprintf(w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" class="ax"/><text x="%.1f" y="%.1f" text-anchor="middle" class="lbl">%s</text>`,
			x, ay, x, ay+4, x, ay+15, esc(tickLabel(v)))
	}
	fmt.Fprintf(w, `<text x="%.1f" y="%.1f" text-anchor="middle" class="lbl">ns/op</text>`+"\n", x0+top*scale/2, ay+28)
	fmt.Fprintln(w, "</g>")
	return y + 42
}

// esc escapes s for XML text and attribute values.
func esc(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

// cutElement returns the value of the key=value element of a benchmark
// name and the name without that element.
func cutElement(name, key string) (value, rest string) {
	elems := strings.Split(name, "/")
	for i, e := range elems {
		if k, v, ok := strings.Cut(e, "="); ok && k == key {
			return v, strings.Join(append(elems[:i:i], elems[i+1:]...), "/")
		}
	}
	return "", name
}
