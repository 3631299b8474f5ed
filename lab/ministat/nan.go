package ministat

import "math"

// ministat, the reference, is x86-64 SSE2 code, and the sign of a NaN it
// prints ("nan" or "-nan") is the hardware's: an invalid operation (∞−∞,
// 0/0, √negative) gives x86's "default NaN", which has the sign bit set and
// prints as "-nan", while an operation with a NaN operand returns that NaN,
// quieted (the first one if both are). arm64 and riscv64 give a positive
// NaN for an invalid operation, and riscv64 also for a NaN operand, so the
// arithmetic whose results ministat prints passes each result through sse,
// which makes it what x86 gives on every GOARCH (on amd64 it changes
// nothing).

// defaultNaN is x86's default NaN, the quiet NaN with the sign bit set.
var defaultNaN = math.Float64frombits(0xfff8000000000000)

// sse returns r, the result of one operation on operands, as x86 SSE2
// gives it: r itself unless it is a NaN; then the first NaN operand,
// quieted, or the default NaN if no operand is a NaN.
func sse(r float64, operands ...float64) float64 {
	if !math.IsNaN(r) {
		return r
	}
	for _, x := range operands {
		if math.IsNaN(x) {
			return math.Float64frombits(math.Float64bits(x) | 1<<51)
		}
	}
	return defaultNaN
}
