package main

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
)

// The -svg charts: a self-contained SVG drawn by hand.
//
// The contention-scaling panels plot median ns/op against the number of
// goroutines for every group of threaded benchmarks that differ only in
// their kind or mode (one line per kind or mode), both axes logarithmic.
// The mode-comparison bars show, per op, the median ns/op of each binding
// mode on one goroutine with the 95% interval of the median as a whisker;
// each op has its own scale, printed at the bar ends.

const (
	svgWidth   = 960
	panelW     = 310
	panelH     = 240
	panelCols  = 3
	plotLeft   = 48 // inside a panel: room for y labels
	plotRight  = 96 // room for the legend
	plotTop    = 28
	plotBottom = 34
	barRowH    = 16
	barLabelW  = 150
	barMaxW    = 560
)

var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"}

// seriesKeys are the name elements that tell contestants apart in a chart.
var seriesKeys = []string{"kind", "mode"}

type point struct{ x, y float64 }

type series struct {
	label  string
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
			if _, rest := cutElement(b.Name, "threads"); rest == b.Name {
				continue
			}
			_, rest := cutElement(b.Name, "threads")
			label := ""
			for _, k := range seriesKeys {
				if v, rr := cutElement(rest, k); v != "" {
					label, rest = v, rr
					break
				}
			}
			if label == "" {
				label = rest
			}
			p := byKey[rest]
			if p == nil {
				p = &panel{title: strings.ReplaceAll(rest, "/", " ")}
				byKey[rest] = p
				panels = append(panels, p)
			}
			var se *series
			for _, x := range p.series {
				if x.label == label {
					se = x
				}
			}
			if se == nil {
				se = &series{label: label}
				p.series = append(p.series, se)
			}
			if y := float64(b.NsPerOp.Median); y > 0 && !math.IsNaN(y) {
				se.points = append(se.points, point{float64(b.Threads), y})
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
			g := byKey[rest]
			if g == nil {
				g = &barGroup{title: strings.ReplaceAll(rest, "/", " ")}
				byKey[rest] = g
				groups = append(groups, g)
			}
			br := bar{label: mode, ns: float64(b.NsPerOp.Median), lo: float64(b.NsPerOp.Lo), hi: float64(b.NsPerOp.Hi),
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
	var body bytes.Buffer
	y := 40
	fmt.Fprintf(&body, `<text x="16" y="24" class="h1">halbench: %s — %s/%s, GOMAXPROCS %d, %s run</text>`+"\n",
		esc(r.brand()), esc(r.GOOS), esc(r.GOARCH), r.GOMAXPROCS, esc(r.Mode))
	if len(panels) > 0 {
		fmt.Fprintf(&body, `<text x="16" y="%d" class="h2">Contention scaling: median ns/op against goroutines (log–log)</text>`+"\n", y+16)
		y += 28
		for i, p := range panels {
			px := 16 + (i%panelCols)*panelW
			py := y + (i/panelCols)*panelH
			drawPanel(&body, p, px, py)
		}
		y += ((len(panels) + panelCols - 1) / panelCols) * panelH
	}
	if len(groups) > 0 {
		y += 12
		fmt.Fprintf(&body, `<text x="16" y="%d" class="h2">Binding modes: median ns/op on one goroutine, whiskers: 95%% interval of the median (scale per op)</text>`+"\n", y+16)
		y += 32
		for _, g := range groups {
			y = drawBars(&body, g, y)
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

// logTicks returns 1-2-5 ticks covering [lo, hi].
func logTicks(lo, hi float64) []float64 {
	var out []float64
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, e)
			if v >= lo*0.999 && v <= hi*1.001 {
				out = append(out, v)
			}
		}
	}
	return out
}

func drawPanel(w io.Writer, p *panel, px, py int) {
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
	// Pad the y range to whole 1-2-5 steps.
	ylo := math.Pow(10, math.Floor(math.Log10(ymin)))
	for _, m := range []float64{5, 2} {
		if m*ylo <= ymin {
			ylo *= m
			break
		}
	}
	yhi := math.Pow(10, math.Ceil(math.Log10(ymax)))
	for _, m := range []float64{5, 2} {
		if yhi/m >= ymax {
			yhi /= m
			break
		}
	}
	if yhi <= ylo {
		yhi = ylo * 2
	}
	sx := func(x float64) float64 {
		if xmax == xmin {
			return (x0 + x1) / 2
		}
		return x0 + (math.Log2(x)-math.Log2(xmin))/(math.Log2(xmax)-math.Log2(xmin))*(x1-x0)
	}
	sy := func(y float64) float64 {
		return y0 - (math.Log10(y)-math.Log10(ylo))/(math.Log10(yhi)-math.Log10(ylo))*(y0-y1)
	}
	fmt.Fprintf(w, `<g><text x="%d" y="%d" class="t">%s</text>`+"\n", px+plotLeft, py+16, esc(p.title))
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
	for i, s := range p.series {
		c := palette[i%len(palette)]
		var pts []string
		for _, pt := range s.points {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", sx(pt.x), sy(pt.y)))
		}
		fmt.Fprintf(w, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>`, strings.Join(pts, " "), c)
		for _, pt := range s.points {
			fmt.Fprintf(w, `<circle cx="%.1f" cy="%.1f" r="2.5" fill="%s"><title>%s, %g goroutines: %s ns/op</title></circle>`,
				sx(pt.x), sy(pt.y), c, esc(s.label), pt.x, num(pt.y))
		}
		ly := float64(py+plotTop) + float64(i)*15
		fmt.Fprintf(w, "\n"+`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="2"/><text x="%.1f" y="%.1f" class="lbl">%s</text>`+"\n",
			x1+8, ly, x1+22, ly, c, x1+26, ly+4, esc(s.label))
	}
	fmt.Fprintln(w, "</g>")
}

func tickLabel(v float64) string {
	if v >= 1 {
		return fmt.Sprintf("%g", v)
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.3f", v), "0"), ".")
}

// drawBars draws one op's modes from y on and returns the next free y.
func drawBars(w io.Writer, g *barGroup, y int) int {
	fmt.Fprintf(w, `<g><text x="16" y="%d" class="t">%s</text>`+"\n", y+12, esc(g.title))
	y += 18
	top := 0.0
	for _, b := range g.bars {
		top = math.Max(top, b.ns)
		if !math.IsNaN(b.hi) {
			top = math.Max(top, b.hi)
		}
	}
	if top <= 0 {
		top = 1
	}
	x0 := 16.0 + barLabelW
	scale := float64(barMaxW) / top
	for i, b := range g.bars {
		c := palette[i%len(palette)]
		by := float64(y)
		fmt.Fprintf(w, `<text x="%.1f" y="%.1f" text-anchor="end" class="lbl">%s</text>`, x0-6, by+11, esc(b.label))
		fmt.Fprintf(w, `<rect x="%.1f" y="%.1f" width="%.1f" height="%d" fill="%s"><title>%s: %s ns/op</title></rect>`,
			x0, by+2, math.Max(b.ns*scale, 0.5), barRowH-4, c, esc(b.label), num(b.ns))
		if !math.IsNaN(b.lo) && !math.IsNaN(b.hi) {
			fmt.Fprintf(w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#000" stroke-width="1.2"/>`,
				x0+b.lo*scale, by+float64(barRowH)/2, x0+b.hi*scale, by+float64(barRowH)/2)
		}
		note := num(b.ns) + " ns"
		if b.isBaseline {
			note += "  baseline"
		} else if b.significance != "" {
			note += "  " + b.significance
		}
		end := math.Max(b.ns, b.hi)
		if math.IsNaN(end) {
			end = b.ns
		}
		fmt.Fprintf(w, `<text x="%.1f" y="%.1f" class="lbl">%s</text>`+"\n", x0+end*scale+6, by+11, esc(note))
		y += barRowH
	}
	fmt.Fprintln(w, "</g>")
	return y + 8
}

// esc escapes s for XML text and attribute values.
func esc(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}
