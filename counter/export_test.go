package counter

// KindNames returns the names of the counters the tests iterate over
// (kinds), for the external test that checks the benchmark suite measures
// each of them.
func KindNames() []string {
	var names []string
	for _, k := range kinds {
		names = append(names, k.name)
	}
	return names
}
