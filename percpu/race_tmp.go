//go:build race

package percpu

const raceEnabled = true
