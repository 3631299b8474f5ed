package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/gohal/gohal/dispatch"
	"github.com/gohal/gohal/hal"
)

// featuresReport is the JSON shape of `halbench features -json`.
type featuresReport struct {
	GOARCH   string                       `json:"goarch"`
	Features featuresJSON                 `json:"features"`
	Selected map[string]selectedVariantJS `json:"selected"`
	Order    []string                     `json:"order"`
}

type featuresJSON struct {
	*dispatch.Features
	CounterHz float64 `json:"counter_hz"`
}

type selectedVariantJS struct {
	Variant string `json:"variant"`
	Reason  string `json:"reason"`
}

func buildFeaturesReport() featuresReport {
	f := dispatch.Host()
	r := featuresReport{
		GOARCH:   f.GOARCH,
		Features: featuresJSON{Features: f, CounterHz: hal.CycleFrequency()},
		Selected: map[string]selectedVariantJS{},
	}
	for _, c := range hal.Selected() {
		r.Selected[c.Op] = selectedVariantJS{Variant: c.Variant, Reason: c.Reason}
		r.Order = append(r.Order, c.Op)
	}
	return r
}

func runFeatures(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("halbench features", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "print JSON instead of text")
	if err := fs.Parse(args); err != nil {
		if err = flagError(fs, err); errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stderr)
			fmt.Fprintln(stderr, "usage: halbench features [-json]\n\nPrint the CPU's features and the dispatch table: every op's variant and why.\n\nFlags:")
			fs.PrintDefaults()
			return 0 // asked for: like -h of run and compare
		}
		return usageFail(stderr, "features", err.Error())
	}
	if fs.NArg() > 0 {
		return usageFail(stderr, "features", fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	r := buildFeaturesReport()
	if *asJSON {
		return exitFor(stderr, "halbench features", writeJSONValue(stdout, r))
	}
	writeFeatures(stdout, r)
	return 0
}

// writeFeatures prints the CPU and the dispatch table as text.
func writeFeatures(w io.Writer, r featuresReport) {
	f := r.Features.Features
	fmt.Fprintf(w, "CPU:       %s (%s, family %d model %d)\n", f.Brand, f.Vendor, f.Family, f.Model)
	hv := ""
	if f.Hypervisor {
		hv = ", under a hypervisor"
	}
	fmt.Fprintf(w, "GOARCH:    %s%s, cache line %d bytes\n", f.GOARCH, hv, f.CacheLine)
	names := f.Names()
	if len(names) == 0 {
		names = []string{"(none that gohal uses)"}
	}
	fmt.Fprintf(w, "Features:  %s\n", strings.Join(names, " "))
	fmt.Fprintf(w, "Counter:   %.4g MHz (Cycles, calibrated against the monotonic clock)\n\n", r.Features.CounterHz/1e6)
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "OP\tVARIANT\tWHY")
	for _, op := range r.Order {
		s := r.Selected[op]
		fmt.Fprintf(tw, "%s\t%s\t%s\n", op, s.Variant, s.Reason)
	}
	tw.Flush()
}
