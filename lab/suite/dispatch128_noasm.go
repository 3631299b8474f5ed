//go:build purego || !(amd64 || arm64)

package suite

// add128Arch has nothing to register: no hal/direct assembly here.
func add128Arch() {}
