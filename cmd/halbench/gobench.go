package main

import (
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/gohal/gohal/lab/benchfile"
	"github.com/gohal/gohal/lab/cyclebench"
)

// gobenchPkg is the pkg configuration line of -format gobench: the module,
// whose benchmarks these are.
const gobenchPkg = "github.com/gohal/gohal"

// betterLower lists the units of -format gobench output, all of which are
// costs: lower is better.
var betterLower = []string{"ns/op", cyclebench.CyclesUnit, cyclebench.FairnessUnit, "retries/op"}

// writeGoBench prints the samples in the Go benchmark format, as `go test
// -bench -count N` would: configuration lines (goos, goarch, pkg, cpu,
// the Go version and gohal's choice for every op), a Unit line per unit,
// and one result line per sample, named like go test names them,
// GOMAXPROCS suffix included. benchstat reads it unchanged.
func writeGoBench(w io.Writer, r *report) error {
	config := []benchfile.Config{{Key: "goos", Value: r.GOOS}, {Key: "goarch", Value: r.GOARCH}, {Key: "pkg", Value: gobenchPkg},
		{Key: "cpu", Value: r.brand()}, {Key: "go", Value: r.GoVersion}}
	for _, op := range r.Machine.Order {
		config = append(config, benchfile.Config{Key: "gohal-" + op, Value: r.Machine.Selected[op].Variant})
	}
	suffix := ""
	if r.GOMAXPROCS > 1 {
		suffix = fmt.Sprintf("-%d", r.GOMAXPROCS)
	}
	var results []benchfile.Result
	used := map[string]bool{"ns/op": true}
	for _, s := range r.Sections {
		for _, b := range s.Benchmarks {
			for _, smp := range b.Samples {
				res := benchfile.Result{Name: b.Name + suffix, Iters: smp.Iters,
					Values: []benchfile.Value{{Value: smp.NsPerOp, Unit: "ns/op"}}}
				units := slices.Sorted(maps.Keys(smp.Metrics))
				if i := slices.Index(units, cyclebench.CyclesUnit); i > 0 { // cycles/op first
					units = slices.Insert(slices.Delete(units, i, i+1), 0, cyclebench.CyclesUnit)
				}
				for _, u := range units {
					res.Values = append(res.Values, benchfile.Value{Value: smp.Metrics[u], Unit: u})
					used[u] = true
				}
				results = append(results, res)
			}
		}
	}
	var units []benchfile.UnitInfo
	for _, u := range betterLower {
		if used[u] {
			units = append(units, benchfile.UnitInfo{Unit: u, Better: "lower"})
			delete(used, u)
		}
	}
	for _, u := range slices.Sorted(maps.Keys(used)) {
		// A metric this version does not know: say nothing about it.
		units = append(units, benchfile.UnitInfo{Unit: u})
	}
	return benchfile.WriteGoBench(w, config, results, units)
}
