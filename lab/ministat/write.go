package ministat

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
)

// DefaultWidth is ministat's plot width when standard output is not a
// terminal.
const DefaultWidth = 74

// MaxSamples is the most samples one ministat block can show: one per plot
// symbol.
const MaxSamples = 7

// symbols are ministat's plot symbols; index i+1 belongs to sample i, and a
// cell where samples overlap shows the symbol of the bitwise OR of their
// indexes, as in ministat.
const symbols = " x+*%#@O"

// Symbol returns the plot and legend symbol of sample i (from 0) of at
// most MaxSamples: 'x', '+', '*', …
func Symbol(i int) byte { return symbols[i+1] }

// Header is ministat's table header line, without the newline.
const Header = "    N           Min           Max        Median           Avg        Stddev"

// Options selects what Write prints; the zero value prints what ministat
// prints by default.
type Options struct {
	// Confidence is the confidence level in percent, one of Confidences;
	// 0 means 95 (ministat -c).
	Confidence float64
	// Width is the plot width in characters between the borders; 0 means
	// DefaultWidth (ministat -w). It must be at least 2: ministat prints
	// garbage for 0 and crashes for 1.
	Width int
	// NoPlot suppresses the plot but keeps the comparisons (ministat -A).
	NoPlot bool
	// StatsOnly prints only the table: no plot and no comparisons
	// (ministat -n).
	StatsOnly bool
	// Stack draws each sample's average/median/stddev bar on its own line
	// (ministat -s) instead of overlaying them all on one line.
	Stack bool
	// Quiet omits the legend ("x name" lines) and the table header
	// (ministat -q of current FreeBSD; the Debian 2015 snapshot lacks
	// it).
	Quiet bool
}

// Write prints ministat's report for samples, the first being the baseline:
// the legend, the plot, the table and, for every later sample, its
// comparison against the first. The output is byte for byte what
// ministat prints for the same numbers, with one exception: where ministat
// would crash on non-finite values in the plot, Write prints
// "[no plot, values are not finite]".
func Write(w io.Writer, samples []Sample, opts Options) error {
	if len(samples) == 0 {
		return errors.New("ministat: no samples")
	}
	if len(samples) > MaxSamples {
		return fmt.Errorf("ministat: %d samples; at most %d fit in one report", len(samples), MaxSamples)
	}
	conf := opts.Confidence
	if conf == 0 {
		conf = 95
	}
	if err := CheckConfidence(conf); err != nil {
		return err
	}
	width := opts.Width
	if width == 0 {
		width = DefaultWidth
	}
	if width < 2 {
		return fmt.Errorf("ministat: plot width %d; need at least 2", width)
	}
	stats := make([]Stats, len(samples))
	for i, s := range samples {
		if err := s.check(); err != nil {
			return err
		}
		stats[i] = s.Stats()
	}

	bw := bufio.NewWriter(w)
	if !opts.Quiet {
		for i, s := range samples {
			fmt.Fprintf(bw, "%c %s\n", symbols[i+1], s.Name)
		}
	}
	if !opts.StatsOnly && !opts.NoPlot {
		writePlot(bw, stats, width, opts.Stack)
	}
	if !opts.Quiet {
		fmt.Fprintln(bw, Header)
	}
	for i, st := range stats {
		writeVitals(bw, st, i)
		if i > 0 && !opts.StatsOnly {
			r, err := compareStats(stats[0], st, conf)
			if err != nil {
				return err
			}
			bw.WriteString(r.String())
		}
	}
	return bw.Flush()
}

// WriteVitals prints one table row for s, "%c %3d %13.8g %13.8g %13.8g
// %13.8g %13.8g" in ministat's C format, with the symbol of the i-th
// sample (0 for the baseline "x").
func WriteVitals(w io.Writer, s Sample, i int) error {
	if i < 0 || i >= MaxSamples {
		return fmt.Errorf("ministat: sample index %d out of range [0, %d)", i, MaxSamples)
	}
	if len(s.Values) == 0 {
		return fmt.Errorf("ministat: sample %q is empty", s.Name)
	}
	bw := bufio.NewWriter(w)
	writeVitals(bw, s.Stats(), i)
	return bw.Flush()
}

func writeVitals(w *bufio.Writer, st Stats, i int) {
	fmt.Fprintf(w, "%c %3d %s %s %s %s %s\n", symbols[i+1], st.N,
		cfmtG(st.Min, 13, 8), cfmtG(st.Max, 13, 8), cfmtG(st.Median, 13, 8),
		cfmtG(st.Mean, 13, 8), cfmtG(st.Stddev, 13, 8))
}

// plot mirrors ministat's struct plot.
type plot struct {
	min, max, span float64
	width          int
	x0, dx         float64
	// rows[j] is the j-th line of dots counted from the bottom; row 0 is
	// never drawn, as in ministat.
	rows [][]byte
	bars [][]byte
	bad  bool // a position fell outside the plot (non-finite input)
}

// adj is ministat's AdjPlot.
func (pl *plot) adj(a float64) {
	if a < pl.min {
		pl.min = a
	}
	if a > pl.max {
		pl.max = a
	}
	pl.span = pl.max - pl.min
	pl.dx = pl.span / (float64(pl.width) - 1.0)
	pl.x0 = pl.min - .5*pl.dx
}

// col converts a value to its column like ministat's C cast, noting values
// that have none instead of writing out of bounds as ministat does.
func (pl *plot) col(v float64) int {
	f := (v - pl.x0) / pl.dx
	if !(f > -1 && f < float64(pl.width)) { // also catches NaN
		pl.bad = true
		return 0
	}
	return int(f)
}

// set is ministat's PlotSet for sample number val (1-based).
func (pl *plot) set(st Stats, val int, stack bool) {
	bar := 0
	if stack {
		bar = val - 1
	}
	if pl.bars[bar] == nil {
		pl.bars[bar] = make([]byte, pl.width)
	}
	m, i, j := 1, -1, 0
	for _, v := range st.Sorted {
		x := pl.col(v)
		if x == i {
			j++
			if j > m {
				m = j
			}
		} else {
			j = 1
			i = x
		}
	}
	m++
	// ministat sets the height to this sample's, even when it is lower
	// than an earlier sample's: rows above it are then not drawn, and
	// are cleared if a later sample needs them again.
	if m > len(pl.rows) {
		for len(pl.rows) < m {
			pl.rows = append(pl.rows, make([]byte, pl.width))
		}
	} else {
		pl.rows = pl.rows[:m]
	}
	i = -1
	for _, v := range st.Sorted {
		x := pl.col(v)
		if x == i {
			j++
		} else {
			j = 1
			i = x
		}
		if j < len(pl.rows) {
			pl.rows[j][x] |= byte(val)
		}
	}
	b := pl.bars[bar]
	if !math.IsNaN(st.Stddev) {
		x := pl.col(st.Mean - st.Stddev)
		m := pl.col(st.Mean + st.Stddev)
		b[m] = '|'
		b[x] = '|'
		for i := x + 1; i < m; i++ {
			if b[i] == 0 {
				b[i] = '_'
			}
		}
	}
	b[pl.col(st.Median)] = 'M'
	b[pl.col(st.Mean)] = 'A'
}

func writePlot(w *bufio.Writer, stats []Stats, width int, stack bool) {
	pl := &plot{width: width, min: 999e99, max: -999e99}
	for _, st := range stats {
		pl.adj(st.Min)
		pl.adj(st.Max)
		pl.adj(st.Mean - st.Stddev)
		pl.adj(st.Mean + st.Stddev)
	}
	if pl.span == 0 {
		w.WriteString("[no plot, span is zero width]\n")
		return
	}
	pl.bars = make([][]byte, len(stats))
	for i, st := range stats {
		pl.set(st, i+1, stack)
	}
	if pl.bad || math.IsInf(pl.span, 0) || math.IsNaN(pl.span) {
		w.WriteString("[no plot, values are not finite]\n")
		return
	}
	border := func() {
		w.WriteByte('+')
		for range width {
			w.WriteByte('-')
		}
		w.WriteString("+\n")
	}
	border()
	for i := len(pl.rows) - 1; i >= 1; i-- {
		w.WriteByte('|')
		for _, k := range pl.rows[i] {
			w.WriteByte(symbols[k])
		}
		w.WriteString("|\n")
	}
	for _, b := range pl.bars {
		if b == nil {
			continue
		}
		w.WriteByte('|')
		for _, k := range b {
			if k == 0 {
				k = ' '
			}
			w.WriteByte(k)
		}
		w.WriteString("|\n")
	}
	border()
}
