// Command copy128 copies a hal.Uint128 by assignment, which go vet's
// copylocks check must report (TestVetCatchesUint128Copy).
package main

import (
	"fmt"

	"github.com/gohal/gohal/hal"
)

func main() {
	var a hal.Uint128
	a.Store(1, 2)
	b := a // go vet: assignment copies lock value
	fmt.Println(b.Load())
}
