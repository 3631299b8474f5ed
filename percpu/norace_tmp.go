//go:build !race

package percpu

const raceEnabled = false
