package percpu

import (
	"testing"

	"github.com/gohal/gohal/internal/modelcheck"
)

// rwModelConfigs are the models TestRWMutexModel explores: a fresh lock
// (its solo lane, closing it, spreading), and a spread lock, biased or
// not, each with hal's fence pair asymmetric (membarrier: the lock may
// bias, FenceLight is free) and not (both sides full fences, never
// biased). Reader 1 migrates in every one. short marks those -short runs.
var rwModelConfigs = []struct {
	c     rwModelConfig
	short bool
}{
	{rwModelConfig{asym: true, reads: 1, writes: 1, migrate: true}, true},
	{rwModelConfig{asym: false, reads: 1, writes: 1, migrate: true}, true},
	{rwModelConfig{asym: true, spread: true, reads: 1, writes: 1, migrate: true}, true},
	{rwModelConfig{asym: true, spread: true, biased: true, reads: 1, writes: 1, migrate: true}, true},
	{rwModelConfig{asym: false, spread: true, reads: 1, writes: 1, migrate: true}, true},
	{rwModelConfig{asym: true, reads: 2, writes: 1, migrate: true}, false},
	{rwModelConfig{asym: true, spread: true, biased: true, reads: 2, writes: 2, migrate: true}, false},
}

// The smallest models that catch each break in TestRWMutexModelBroken.
var (
	rwFresh          = rwModelConfig{asym: true, reads: 1, writes: 1, migrate: true}
	rwFreshPortable  = rwModelConfig{asym: false, reads: 1, writes: 1, migrate: true}
	rwSpreadBiased   = rwModelConfig{asym: true, spread: true, biased: true, reads: 1, writes: 1, migrate: true}
	rwSpreadPortable = rwModelConfig{asym: false, spread: true, reads: 1, writes: 1, migrate: true}
)

// TestRWMutexModel explores every interleaving of the protocol's model
// (rwmodel_test.go) and finds no lost exclusion, no lost wake-up and no
// hang.
func TestRWMutexModel(t *testing.T) {
	for _, m := range rwModelConfigs {
		if testing.Short() && !m.short {
			continue
		}
		t.Run(m.c.String(), func(t *testing.T) {
			r := modelcheck.Explore(rwModel(m.c))
			t.Logf("%d states, %d moves", r.States, r.Moves)
			if r.Err != nil {
				t.Fatal(r.Err)
			}
		})
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
		{mutNoHeavyFence, rwFresh, modelcheck.Stuck},
		{mutInsFirst, rwSpreadPortable, modelcheck.Assertion},
		{mutNoSoloInSum, rwFresh, modelcheck.Assertion},
		{mutCountAfterLook, rwSpreadPortable, modelcheck.Assertion},
		{mutLightUnbiased, rwSpreadPortable, modelcheck.Assertion},
		{mutNoWakeOnLeave, rwFreshPortable, modelcheck.Stuck},
		{mutNoWakeOnBackout, rwFreshPortable, modelcheck.Stuck},
		{mutNoSignalFence, rwFresh, modelcheck.Stuck},
		{mutLaneIgnoresFlag, rwFreshPortable, modelcheck.Assertion},
	} {
		c := b.c
		c.mut = b.mut
		t.Run(rwMutationNames[b.mut], func(t *testing.T) {
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

// TestRWMutexModelScan runs every mutation against every configuration
// and reports what each finds: a table for choosing TestRWMutexModelBroken's cases.
func TestRWMutexModelScan(t *testing.T) {
	if testing.Short() {
		t.Skip("a table for the model's maintainer")
	}
	for mut := range rwMutationNames {
		for _, m := range rwModelConfigs {
			if !m.short {
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
