package ministat

// qsort sorts v as ministat's qsort(3) call with its dbl_cmp comparator
// sorts it on Debian (glibc 2.36, and every glibc since 1992): glibc's
// qsort is a top-down merge sort (msort.c), which splits n elements into
// the first n/2 and the remaining n − n/2, sorts each half and merges them,
// taking the left element unless dbl_cmp says it is greater than the right
// one. dbl_cmp returns −1 for a < b, 1 for a > b and 0 otherwise, so −0 and
// 0 compare equal and keep their input order (the sort is stable), and a
// NaN compares equal to everything, which places it wherever this
// particular merge order puts it. Reproducing the algorithm, not only its
// stability, is what makes Min, Max and Median the same bits as ministat's
// for any input, NaN included. (glibc falls back to an unstable quicksort
// only when the scratch buffer would exceed a quarter of physical memory
// or cannot be allocated.)
func qsort(v []float64) {
	if len(v) < 2 {
		return
	}
	msort(v, make([]float64, len(v)))
}

// msort is glibc's msort_with_tmp for 8-byte elements; tmp has room for v.
func msort(v, tmp []float64) {
	n := len(v)
	if n <= 1 {
		return
	}
	n1 := n / 2
	b1, b2 := v[:n1], v[n1:]
	msort(b1, tmp)
	msort(b2, tmp)
	k := 0
	for len(b1) > 0 && len(b2) > 0 {
		// dbl_cmp(b1, b2) <= 0 is "not b1 > b2".
		if !(b1[0] > b2[0]) {
			tmp[k] = b1[0]
			b1 = b1[1:]
		} else {
			tmp[k] = b2[0]
			b2 = b2[1:]
		}
		k++
	}
	// What is left of b1 goes after the merged part; what is left of b2
	// is already in place.
	k += copy(tmp[k:], b1)
	copy(v, tmp[:k])
}
