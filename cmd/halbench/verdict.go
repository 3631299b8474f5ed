package main

import (
	"fmt"
	"math"
	"strings"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/hal/haltool"
	"github.com/gohal/gohal/lab/cyclebench"
	"github.com/gohal/gohal/lab/suite"
)

// verdict is the report's conclusion in plain words, every number in it
// computed from this run's samples, and the numbers themselves.
type verdict struct {
	Paragraphs []string `json:"paragraphs"`
	Facts      []fact   `json:"facts"`
}

// fact is one number the verdict states.
type fact struct {
	Key   string `json:"key"`
	Value jnum   `json:"value"`
	Unit  string `json:"unit"`
	What  string `json:"what"`
}

// diffStat is the difference other − base of one metric (Hodges–Lehmann
// estimate) with its interval by the report's one rule: robust to the odd
// outlier that a shared machine throws in, where a t test on the means
// is not.
type diffStat struct {
	diffCI
	ok bool
}

func diffOf(base, other *benchReport, unit string) diffStat {
	b, o := base.metric(unit), other.metric(unit)
	return diffStat{compareDiff(b, o, confidence/100.0), len(b) >= minRuleSamples && len(o) >= minRuleSamples}
}

// describe gives the interval: "95% CI 2.1 to 3.9 cycles".
func (d diffStat) describe(unit string) string {
	return fmt.Sprintf("%v%% CI %s to %s %s, %s", confidence, num(d.Lo), num(d.Hi), unit, ruleName)
}

// costSentence states what a difference costs: the estimated difference
// when the report's rule proves one, or that none was proven.
func costSentence(subject, how string, dc, dn diffStat) string {
	switch {
	case !dc.ok:
		return fmt.Sprintf("%s: too few samples to say what it costs (%s; the rule needs %d per side).", subject, how, minRuleSamples)
	case !dc.Significant:
		return fmt.Sprintf("%s costs nothing measurable here (%s): no difference proven at %v%% confidence, the estimated difference is %s cycles (%s).",
			subject, how, confidence, num(dc.Diff), dc.describe("cycles"))
	case dc.Diff < 0:
		return fmt.Sprintf("%s measured cheaper, by %s cycles (%s ns), which points at noise or code layout rather than a saving (%s; %s).",
			subject, num(-dc.Diff), num(-dn.Diff), how, dc.describe("cycles"))
	default:
		return fmt.Sprintf("%s costs about %s cycles (%s ns) here (%s; %s).",
			subject, num(dc.Diff), num(dn.Diff), how, dc.describe("cycles"))
	}
}

// num formats a measurement with three significant digits.
func num(x float64) string {
	switch {
	case math.IsNaN(x):
		return "-"
	case math.Abs(x) >= 100:
		return fmt.Sprintf("%.0f", x)
	case math.Abs(x) >= 10:
		return fmt.Sprintf("%.1f", x)
	default:
		return fmt.Sprintf("%.2f", x)
	}
}

// ratioText is "1.08× (95% CI 1.05–1.11)".
func ratioText(r ratioJSON) string {
	if math.IsNaN(float64(r.Lo)) {
		return fmt.Sprintf("%.2f×", float64(r.Ratio))
	}
	return fmt.Sprintf("%.2f× (%v%% CI %.2f–%.2f)", float64(r.Ratio), confidence, float64(r.Lo), float64(r.Hi))
}

func buildVerdict(r *report) verdict {
	var v verdict
	add := func(key string, value float64, unit, what string) {
		v.Facts = append(v.Facts, fact{key, jnum(value), unit, what})
	}
	get := func(name string) *benchReport { return r.byName[name] }
	med := func(b *benchReport) float64 { return float64(b.NsPerOp.Median) }
	medC := func(b *benchReport) float64 { return float64(b.CyclesPerOp.Median) }
	hz := r.Machine.Features.CounterHz

	// What an indirect call costs.
	var p []string
	inline := get(suite.DispatchName("fetchadd64", suite.ModeInline))
	api := get(suite.DispatchName("fetchadd64", suite.ModeAPI))
	table := get(suite.DispatchName("fetchadd64", suite.ModeTable))
	closure := get(suite.DispatchName("fetchadd64", suite.ModeClosure))
	indirectNs := math.NaN()
	if inline != nil && closure != nil {
		dc, dn := diffOf(inline, closure, cyclebench.CyclesUnit), diffOf(inline, closure, "ns/op")
		add("indirect_call_cycles", dc.Diff, "cycles", "closure − inline, fetchadd64, Hodges–Lehmann difference: an indirect call to Go code")
		add("indirect_call_ns", dn.Diff, "ns", "closure − inline, fetchadd64, Hodges–Lehmann difference")
		if dn.ok && dn.Significant && dn.Diff > 0 {
			indirectNs = dn.Diff
		}
		p = append(p, costSentence("An indirect call", "fetchadd64 through a func value holding a Go closure, against the same sync/atomic op inlined", dc, dn))
	} else {
		p = append(p, "The cost of an indirect call was not measured (the fetchadd64 modes inline and closure were filtered out).")
	}
	if api != nil && table != nil {
		dc, dn := diffOf(api, table, cyclebench.CyclesUnit), diffOf(api, table, "ns/op")
		add("table_over_api_cycles", dc.Diff, "cycles", "table − api, fetchadd64, Hodges–Lehmann difference: indirect call + ABI0 wrapper, against hal's exported function (binding "+string(haltool.Binding("fetchadd64"))+")")
		add("table_over_api_ns", dn.Diff, "ns", "table − api, fetchadd64, Hodges–Lehmann difference")
		p = append(p, costSentence("Calling hal through haltool.Table() instead of its exported function", "the indirect call plus the ABI0 wrapper in front of the assembly, against hal.FetchAddUint64 (binding "+string(haltool.Binding("fetchadd64"))+")", dc, dn))
	}
	if direct := get(suite.DispatchName("fetchadd64", suite.ModeDirect)); direct != nil && table != nil {
		dc, dn := diffOf(direct, table, cyclebench.CyclesUnit), diffOf(direct, table, "ns/op")
		add("table_over_direct_cycles", dc.Diff, "cycles", "table − direct, fetchadd64, Hodges–Lehmann difference: indirect call + ABI0 wrapper, against a direct call of the same assembly")
		add("table_over_direct_ns", dn.Diff, "ns", "table − direct, fetchadd64, Hodges–Lehmann difference")
		p = append(p, costSentence("The func value against a direct call of the same assembly", "the indirect call plus the ABI0 wrapper alone", dc, dn))
	}
	if hz > 0 {
		p = append(p, fmt.Sprintf("Cycles are ticks of hal.Cycles, %s MHz when calibrated against the monotonic clock (on amd64 the TSC's fixed rate, which need not be the core clock).", num(hz/1e6)))
	}
	v.Paragraphs = append(v.Paragraphs, strings.Join(p, " "))

	// Which binding hal uses, and why.
	p = nil
	byBinding := map[haltool.BindingKind][]string{}
	for _, op := range haltool.Ops() {
		byBinding[haltool.Binding(op)] = append(byBinding[haltool.Binding(op)], op)
	}
	portable := true
	for _, c := range hal.Selected() {
		portable = portable && c.Variant == "portable"
	}
	var bind string
	switch {
	case portable:
		bind = "This build uses hal's portable implementation (purego or race build, or no backend for " + r.GOARCH + "): every exported function is Go over sync/atomic, which the compiler may inline, so there is no binding to choose."
	case len(byBinding[haltool.Static]) > 0:
		bind = "This is a gohal_static build: every variant was fixed at compile time from the GOAMD64/GOARM64 level, and no flag is read."
	default:
		bind = "hal binds every op once, at init (haltool.Binding says how)."
		if ops := byBinding[haltool.Inline]; len(ops) > 0 {
			bind += fmt.Sprintf(" Ops whose only variant is exactly a sync/atomic intrinsic (%s) are Go functions over it, which the compiler inlines: nothing to choose, no call.", strings.Join(ops, ", "))
		}
		if ops := byBinding[haltool.Plain]; len(ops) > 0 {
			bind += fmt.Sprintf(" Ops whose only variant is the plain access, a plain store being a release store here (%s), are Go functions of that access, which the compiler inlines: no call.", strings.Join(ops, ", "))
		}
		if ops := byBinding[haltool.Guarded]; len(ops) > 0 {
			bind += fmt.Sprintf(" Ops with several variants one of which is the sync/atomic intrinsic (%s) are Go functions the compiler inlines: a one-byte guard, then the intrinsic's own code, with a call of the flag entry only when GOHAL or haltool.Force chose a variant the intrinsic does not run.", strings.Join(ops, ", "))
		}
		if ops := byBinding[haltool.Flag]; len(ops) > 0 {
			bind += fmt.Sprintf(" Ops with several variants (%s) read a one-byte flag set at init and go to the chosen one, the binding the Go runtime uses for its arm64 atomics; the caller reaches the entry by a direct call, which skips the ABI0 wrapper a func value pointing at assembly goes through.", strings.Join(ops, ", "))
		}
		if ops := byBinding[haltool.Single]; len(ops) > 0 {
			bind += fmt.Sprintf(" The rest (%s) are their one variant, called directly.", strings.Join(ops, ", "))
		}
	}
	p = append(p, bind)
	if api != nil && inline != nil && api.Ratio != nil {
		p = append(p, fmt.Sprintf("Measured on fetchadd64: the exported function costs %s the inlined intrinsic.", ratioText(*api.Ratio)))
		add("api_over_inline", float64(api.Ratio.Ratio), "ratio", "fetchadd64 api / inline, ns/op, Hodges–Lehmann ratio")
	}
	if api != nil && table != nil {
		rc := compareRatio(api.ns(), table.ns(), confidence/100.0)
		rj := ratioJSON{jnum(rc.Ratio), jnum(rc.Lo), jnum(rc.Hi), rc.Significant}
		add("table_over_api", rc.Ratio, "ratio", "fetchadd64 table / api, ns/op, Hodges–Lehmann ratio")
		s := fmt.Sprintf("The table's func value costs %s the exported function", ratioText(rj))
		switch {
		case rc.Significant && rc.Ratio > 1:
			s += ", so the exported function is the cheaper binding; the table is for callers that keep operations in data."
		case rc.Significant:
			s += ": here the table measured cheaper than the exported function, against the design; rerun with -full before trusting that."
		default:
			s += ": on this machine the difference is within the noise."
		}
		p = append(p, s)
	}
	var chosen []string
	for _, c := range hal.Selected() {
		if vs, _ := haltool.Variants(c.Op); len(vs) > 1 || strings.HasPrefix(c.Reason, "override") {
			chosen = append(chosen, fmt.Sprintf("%s=%s (%s)", c.Op, c.Variant, c.Reason))
		}
	}
	if len(chosen) > 0 {
		p = append(p, "Choices made for this CPU: "+strings.Join(chosen, "; ")+".")
	}
	v.Paragraphs = append(v.Paragraphs, strings.Join(p, " "))

	// The budget: what fits in 1 µs.
	var items []string
	budget := func(key string, b *benchReport, what string) {
		if b == nil {
			return
		}
		n := 1000 / med(b)
		add("per_us_"+key, n, "per µs", what)
		items = append(items, fmt.Sprintf("%s %s (%s ns, %s cycles each)", count(n), what, num(med(b)), num(medC(b))))
	}
	budget("atomic_add", inline, "uncontended atomic adds inlined")
	budget("hal_add", api, "through hal.FetchAddUint64")
	if !math.IsNaN(indirectNs) {
		n := 1000 / indirectNs
		add("per_us_indirect_call", n, "per µs", "indirect calls (closure − inline)")
		items = append(items, fmt.Sprintf("%s indirect calls on top of the op (%s ns each)", count(n), num(indirectNs)))
	}
	budget("mutex", get(suite.LockName("mutex", 1, 0)), "uncontended sync.Mutex Lock+Unlock round trips")
	budget("ttas", get(suite.LockName("ttas", 1, 0)), "uncontended TTAS round trips")
	budget("mutex_2", get(suite.LockName("mutex", 2, 0)), "sync.Mutex round trips shared by 2 goroutines")
	budget("contended_add_2", get(suite.ContendedName("fetchadd64", suite.ModeInline, 2)), "atomic adds on one word by 2 goroutines together")
	budget("pause", get(suite.DispatchName("pause", suite.ModeAPI)), "spin-wait hints (hal.Pause)")
	budget("cycles", get(suite.DispatchName("cycles", suite.ModeAPI)), "cycle-counter reads (hal.Cycles)")
	if len(items) > 0 {
		v.Paragraphs = append(v.Paragraphs, "Budget: 1 µs on this CPU buys about "+strings.Join(items, "; ")+".")
	}

	// The key comparisons and the kit's winners.
	p = nil
	for _, pr := range r.Pairs {
		word := "no significant difference"
		if pr.Ratio.Significant {
			word = "slower"
			if pr.Ratio.Ratio < 1 {
				word = "faster"
			}
		}
		if math.IsNaN(float64(pr.Ratio.Lo)) {
			word = fmt.Sprintf("no verdict: fewer than %d samples", minRuleSamples)
		}
		p = append(p, fmt.Sprintf("%s: %s (%s).", pr.Title, ratioText(pr.Ratio), word))
	}
	if len(p) > 0 {
		v.Paragraphs = append(v.Paragraphs, "Key comparisons, the first named against the second (significant: the "+ruleName+" excludes 1): "+strings.Join(p, " "))
	}
	var advice []string
	for _, sec := range []struct{ section, what string }{{"Lock", "a lock"}, {"Counter", "a counter"}, {"Cache", "a cache"}} {
		advice = append(advice, kitAdvice(r, sec.section, sec.what)...)
	}
	if len(advice) > 0 {
		v.Paragraphs = append(v.Paragraphs, "On this machine, by the same rule (\"use X\" only when X is significantly faster than every other candidate; otherwise the tie is named): "+strings.Join(advice, "; ")+".")
	}
	return v
}

// count rounds a per-µs count for prose: "about 160", "1.5".
func count(n float64) string {
	switch {
	case n >= 100:
		return fmt.Sprintf("%.0f", math.Round(n/10)*10)
	case n >= 10:
		return fmt.Sprintf("%.0f", n)
	default:
		return fmt.Sprintf("%.1f", n)
	}
}

// kitAdvice advises, per group of a section's benchmarks that differ
// only in their kind, which kind to use, by the report's one rule
// (fastest): a win only when one kind is significantly faster than every
// other, else the tie, named as a tie. Kinds are named as tune's kit tables
// name them (spin.TTAS, sync.Mutex) when they are there.
func kitAdvice(r *report, section, what string) []string {
	var sec *sectionReport
	for i := range r.Sections {
		if r.Sections[i].Name == section {
			sec = &r.Sections[i]
		}
	}
	if sec == nil {
		return nil
	}
	names := map[string]string{}
	for _, k := range kitKinds() {
		if k.section == section {
			for _, c := range k.candidates {
				names[c.Kind] = c.Name
			}
		}
	}
	display := func(kind string) string {
		if n, ok := names[kind]; ok {
			return n
		}
		return kind
	}
	type group struct {
		cands    []candidate
		baseline string
	}
	var order []string
	groups := map[string]*group{}
	for _, b := range sec.Benchmarks {
		kind, rest := cutElement(b.Name, "kind")
		if kind == "" {
			continue
		}
		g := groups[rest]
		if g == nil {
			g = &group{}
			groups[rest] = g
			order = append(order, rest)
		}
		g.cands = append(g.cands, candidate{display(kind), b.ns()})
		if b.Baseline == b.Name {
			g.baseline = display(kind)
		}
	}
	var out []string
	for _, k := range order {
		g := groups[k]
		if len(g.cands) < 2 {
			continue
		}
		job := what + " at " + strings.TrimPrefix(k, section+"/")
		out = append(out, adviceText(fastest(g.cands), job, g.baseline))
	}
	return out
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
