package percpu

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/gohal/gohal/internal/modelcheck"
)

// rwModelConfigs are the models TestRWMutexModel explores: a fresh lock
// (its solo lane, closing it, spreading), and a spread lock, biased or
// not, each with hal's fence pair asymmetric (membarrier: the lock may
// bias, FenceLight is free) and not (both sides full fences, never
// biased). Reader 1 migrates in every one.
var rwModelConfigs = []struct {
	c     rwModelConfig
	level int // rwShort, rwFull or rwBig
}{
	{rwModelConfig{asym: false, reads: 1, writes: 1, migrate: true}, rwShort},
	{rwModelConfig{asym: true, reads: 1, writes: 1, migrate: true}, rwShort},
	{rwModelConfig{asym: false, reads: 1, writes: 1, migrate: true, noSlots: true}, rwShort},
	{rwModelConfig{asym: true, spread: true, biased: true, reads: 1, writes: 1, migrate: true}, rwShort},
	{rwModelConfig{asym: false, spread: true, reads: 1, writes: 1, migrate: true}, rwShort},
	{rwTwoWrites, rwShort},
	{rwBiasedTwoWrites, rwShort},
	{rwModelConfig{asym: true, spread: true, reads: 1, writes: 1, migrate: true}, rwFull},
	{rwModelConfig{asym: false, reads: 2, writes: 1, migrate: true}, rwBig},
	{rwModelConfig{asym: true, spread: true, biased: true, reads: 1, writes: 2, migrate: true}, rwBig},
}

// The levels of rwModelConfigs: -short runs rwShort, go test without
// -short rwFull too, and GOHAL_MODEL_BIG=1 rwBig too (millions of
// states, gigabytes: for a maintainer who changes the protocol).
const (
	rwShort = iota
	rwFull
	rwBig
)

// rwModelLevel is the highest level this run explores.
func rwModelLevel() int {
	switch {
	case testing.Short():
		return rwShort
	case os.Getenv("GOHAL_MODEL_BIG") == "1":
		return rwBig
	}
	return rwFull
}

// The smallest models that catch each break in TestRWMutexModelBroken.
var (
	rwFresh         = rwModelConfig{asym: true, reads: 1, writes: 1, migrate: true}
	rwFreshPortable = rwModelConfig{asym: false, reads: 1, writes: 1, migrate: true}
	rwTwoWrites     = rwModelConfig{asym: false, reads: 1, writes: 2, migrate: true}
	// One reader, two writes: the first revokes the bias, the second
	// parks for a backout made on the biased state.
	rwBiasedTwoWrites       = rwModelConfig{asym: true, spread: true, biased: true, reads: 2, writes: 2, oneReader: true}
	rwSpreadBiased          = rwModelConfig{asym: true, spread: true, biased: true, reads: 1, writes: 1, migrate: true}
	rwFreshPortableTwoReads = rwModelConfig{asym: false, reads: 2, writes: 1, migrate: true}
	rwSpread                = rwModelConfig{asym: true, spread: true, reads: 1, writes: 1, migrate: true}
	rwSpreadPortable        = rwModelConfig{asym: false, spread: true, reads: 1, writes: 1, migrate: true}
)

// rwModelCheap reports whether only the smallest models run: in -short
// runs under the race detector or on another GOARCH than amd64 (CI runs
// those under qemu), where the same pure computation takes many times as
// long and finds what it finds on amd64.
func rwModelCheap() bool {
	return testing.Short() && (raceBuild || runtime.GOARCH != "amd64")
}

// rwModelRuns are the results of exploring rwModelConfigs, the -short
// ones in -short runs (only the first where rwModelCheap), explored once
// for the tests that need them.
var rwModelRuns = sync.OnceValue(func() (out []struct {
	c rwModelConfig
	r modelcheck.Result
}) {
	for i, m := range rwModelConfigs {
		if m.level > rwModelLevel() || rwModelCheap() && i > 0 {
			continue
		}
		sp := rwModel(m.c)
		if m.level == rwBig {
			sp.MaxStates = 1 << 25
		}
		out = append(out, struct {
			c rwModelConfig
			r modelcheck.Result
		}{m.c, modelcheck.Explore(sp)})
	}
	return out
})

// TestRWMutexModel explores every interleaving of the protocol's model
// (rwmodel_test.go) and finds no lost exclusion, no lost wake-up and no
// hang.
func TestRWMutexModel(t *testing.T) {
	for _, run := range rwModelRuns() {
		t.Run(run.c.String(), func(t *testing.T) {
			t.Logf("%d states, %d moves", run.r.States, run.r.Moves)
			if run.r.Err != nil {
				t.Fatal(run.r.Err)
			}
		})
	}
}

// rwStepRE matches a model step's name in brackets: [R-in], [W-sum-out].
var rwStepRE = regexp.MustCompile(`\[([A-Z]-[a-z][a-z-]*)\]`)

// TestRWMutexModelStepsInCode: every step the model takes is marked in
// percpu's code (Go and the generated assembly's comments) by its name in
// brackets, and every such mark names a step of the model, so that the
// model and the code say the same thing step by step. The explored models
// together take every step.
func TestRWMutexModelStepsInCode(t *testing.T) {
	if rwModelCheap() {
		t.Skip("the smallest model alone does not take every step")
	}
	model := map[string]bool{}
	for _, run := range rwModelRuns() {
		for _, s := range run.r.Steps {
			for _, m := range rwStepRE.FindAllStringSubmatch(s, -1) {
				model[m[1]] = true
			}
		}
	}
	code := map[string][]string{} // step → files that mark it
	files, err := filepath.Glob("*")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || !strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, ".s") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range rwStepRE.FindAllStringSubmatch(string(b), -1) {
			if !slices.Contains(code[m[1]], f) {
				code[m[1]] = append(code[m[1]], f)
			}
		}
	}
	if len(code) == 0 {
		t.Skip("percpu's code marks no model step yet")
	}
	var missing, unknown []string
	for s := range model {
		if len(code[s]) == 0 {
			missing = append(missing, s)
		}
	}
	for s, fs := range code {
		if !model[s] {
			unknown = append(unknown, s+" (in "+strings.Join(fs, ", ")+")")
		}
	}
	sort.Strings(missing)
	sort.Strings(unknown)
	if len(missing) > 0 {
		t.Errorf("model steps no code marks: %s", strings.Join(missing, ", "))
	}
	if len(unknown) > 0 {
		t.Errorf("marks in the code that name no step the model takes: %s", strings.Join(unknown, ", "))
	}
}

// TestRWMutexModelBroken breaks the model on purpose, one step at a time,
// and passes when the check catches each break: in the configuration
// given, and with the violation given.
func TestRWMutexModelBroken(t *testing.T) {
	for _, b := range []struct {
		mut  rwMutation
		c    rwModelConfig
		want modelcheck.Kind
	}{
		{mutNoRevokeFence, rwSpreadBiased, modelcheck.Assertion},
		{mutNoHeavyFence, rwSpread, modelcheck.Stuck},
		{mutInsFirst, rwSpreadPortable, modelcheck.Assertion},
		{mutNoSoloInSum, rwFresh, modelcheck.Assertion},
		{mutCountAfterLook, rwSpreadPortable, modelcheck.Assertion},
		{mutLightUnbiased, rwSpreadPortable, modelcheck.Assertion},
		{mutNoWakeOnLeave, rwSpreadPortable, modelcheck.Stuck},
		{mutNoWakeOnBackout, rwSpreadPortable, modelcheck.Stuck},
		{mutNoSignalFence, rwSpread, modelcheck.Stuck},
		{mutLaneIgnoresFlag, rwFreshPortable, modelcheck.Assertion},
		{mutReleasePlain, rwFreshPortable, modelcheck.Stuck},
		{mutNoAdmit, rwFreshPortable, modelcheck.Stuck},
		{mutParkLookFirst, rwFreshPortable, modelcheck.Stuck},
		{mutQueueOnW, rwTwoWrites, modelcheck.Assertion},
		{mutCloseUnderWriter, rwFreshPortable, modelcheck.Stuck},
		{mutRaiseSoloClosed, rwSpreadPortable, modelcheck.Assertion},
		{mutNoWakeOnLaneBack, rwFreshPortable, modelcheck.Stuck},
		{mutClosedOutOnWord, rwFreshPortableTwoReads, modelcheck.Stuck},
		{mutIdleWithReader, rwFreshPortable, modelcheck.Assertion},
		{mutNoTickets, rwBiasedTwoWrites, modelcheck.Stuck},
		{mutTicketUnchecked, rwFreshPortable, modelcheck.Assertion},
		{mutAdmittedNoTicket, rwBiasedTwoWrites, modelcheck.Assertion},
	} {
		c := b.c
		c.mut = b.mut
		t.Run(rwMutationNames[b.mut], func(t *testing.T) {
			// The membarrier pair unbiased, and two readers reading
			// twice, make the large models.
			if large := c.asym && !c.biased || c.reads > 1 && !c.oneReader; rwModelCheap() && large {
				t.Skip("a large model: -short runs it on amd64 without -race")
			}
			r := modelcheck.Explore(rwModel(c))
			if r.Err == nil {
				t.Fatalf("%v: the check found nothing (%d states)", c, r.States)
			}
			if r.Err.Kind != b.want {
				t.Fatalf("%v: want %v, got %v", c, b.want, r.Err)
			}
			t.Logf("%v: %d states; %v", c, r.States, r.Err)
		})
	}
}

// TestRWMutexModelMargins explores changes that the protocol could make
// and stay correct, where the code keeps the stronger step: each must
// pass, so that DESIGN.md's claim that the step is a margin holds.
func TestRWMutexModelMargins(t *testing.T) {
	for _, b := range []struct {
		mut rwMutation
		c   rwModelConfig
	}{
		// [W-heavy] makes a light backout visible to the next
		// writer's sums, as it does any light count out.
		{mutLightBackout, rwBiasedTwoWrites},
	} {
		c := b.c
		c.mut = b.mut
		t.Run(rwMutationNames[b.mut], func(t *testing.T) {
			r := modelcheck.Explore(rwModel(c))
			if r.Err != nil {
				t.Fatalf("%v: %v", c, r.Err)
			}
			t.Logf("%v: %d states, %d moves", c, r.States, r.Moves)
		})
	}
}

// TestRWMutexModelScan runs every mutation against every -short
// configuration and logs what each finds: a table for choosing
// TestRWMutexModelBroken's cases, run with GOHAL_MODEL_SCAN=1.
func TestRWMutexModelScan(t *testing.T) {
	if os.Getenv("GOHAL_MODEL_SCAN") != "1" {
		t.Skip("a table for the model's maintainer: set GOHAL_MODEL_SCAN=1")
	}
	for mut := range rwMutationNames {
		for _, m := range rwModelConfigs {
			if m.level != rwShort {
				continue
			}
			c := m.c
			c.mut = mut
			r := modelcheck.Explore(rwModel(c))
			what := "nothing"
			if r.Err != nil {
				what = r.Err.Kind.String() + ": " + r.Err.What
			}
			t.Logf("%v: %s (%d states)", c, what, r.States)
		}
	}
}

// TestRWMutexDesignDoc: DESIGN.md names every step the model takes and no
// other, and its relative links name files that exist.
func TestRWMutexDesignDoc(t *testing.T) {
	if rwModelCheap() {
		t.Skip("the smallest model alone does not take every step")
	}
	b, err := os.ReadFile("DESIGN.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := map[string]bool{}
	for _, m := range rwStepRE.FindAllStringSubmatch(string(b), -1) {
		doc[m[1]] = true
	}
	model := map[string]bool{}
	for _, run := range rwModelRuns() {
		for _, s := range run.r.Steps {
			for _, m := range rwStepRE.FindAllStringSubmatch(s, -1) {
				model[m[1]] = true
			}
		}
	}
	for s := range model {
		if !doc[s] {
			t.Errorf("DESIGN.md does not name model step [%s]", s)
		}
	}
	for s := range doc {
		if !model[s] {
			t.Errorf("DESIGN.md names [%s], which the model does not take", s)
		}
	}
	for _, m := range regexp.MustCompile(`\]\(([^)#]+)[^)]*\)`).FindAllStringSubmatch(string(b), -1) {
		target := m[1]
		if strings.Contains(target, "://") {
			continue
		}
		if _, err := os.Stat(filepath.FromSlash(target)); err != nil {
			t.Errorf("DESIGN.md links to %s: %v", target, err)
		}
	}
}
