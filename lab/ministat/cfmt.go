package ministat

import (
	"math"
	"strconv"
	"strings"
)

// cfmtG formats x like C's printf("%*.*g", width, prec, x) in glibc: the
// shortest of %e and %f with prec significant digits and trailing zeros
// removed, and "inf", "-inf", "nan" or "-nan" for the special values.
// Go's strconv 'g' format follows the same rules for finite numbers.
func cfmtG(x float64, width, prec int) string {
	var s string
	switch {
	case math.IsNaN(x):
		s = "nan"
		if math.Signbit(x) {
			s = "-nan"
		}
	case math.IsInf(x, 1):
		s = "inf"
	case math.IsInf(x, -1):
		s = "-inf"
	default:
		s = strconv.FormatFloat(x, 'g', prec, 64)
	}
	if len(s) < width {
		s = strings.Repeat(" ", width-len(s)) + s
	}
	return s
}
