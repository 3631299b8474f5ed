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

// set stores v, for tests that start a counter near the ends of int64.
func (c *CASLoop) set(v int64) { c.v = uint64(v) }

// set stores v, for tests that start a counter near the ends of int64.
func (c *FetchAdd) set(v int64) { c.v = uint64(v) }
