package hal

// Interim load128 and store128 over cas128 until the generator has the ops.

func load128(addr *[2]uint64) (lo, hi uint64) {
	lo, hi, _ = cas128(addr, 0, 0, 0, 0)
	return lo, hi
}

func store128(addr *[2]uint64, lo, hi uint64) {
	oldLo, oldHi := load128(addr)
	for {
		l, h, ok := cas128(addr, oldLo, oldHi, lo, hi)
		if ok {
			return
		}
		oldLo, oldHi = l, h
	}
}
