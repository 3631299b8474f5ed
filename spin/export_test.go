package spin

import "testing"

// LockKindNames returns the names of the locks the tests iterate over
// (lockKinds), for the external test that checks the benchmark suite
// measures each of them.
func LockKindNames() []string {
	var names []string
	for _, k := range lockKinds {
		names = append(names, k.name)
	}
	return names
}

// useSeams sets the test seams (seams.go) for the rest of t, restoring
// those in force before when t ends.
func useSeams(t testing.TB, s seams) {
	old := testSeams.Swap(&s)
	t.Cleanup(func() { testSeams.Store(old) })
}
