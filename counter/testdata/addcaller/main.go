// Command addcaller calls counter.Adder's Add in a loop, for
// TestAdderFastPathDisassembly to read the inlined fast path.
package main

import "github.com/gohal/gohal/counter"

//go:noinline
func addMany(a *counter.Adder, n int) {
	for range n {
		a.Add(1)
	}
}

func main() {
	var a counter.Adder
	addMany(&a, 1000)
	if a.Load() != 1000 {
		panic("addcaller: wrong count")
	}
}
