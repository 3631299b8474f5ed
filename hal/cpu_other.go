//go:build !linux

package hal

// cpu_portable is op cpu's Go variant. Outside Linux gohal knows no
// portable way to ask which CPU runs the caller, so it answers 0: a CPU
// number that exists on every machine, so code that indexes per-CPU data
// by it stays correct and only loses the spreading (on js/wasm and
// wasip1, which run one thread, 0 is simply right).
func cpu_portable() int { return 0 }
