package spin

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
