//go:build purego || !(amd64 || arm64)

package suite

// haveAsm is false: this build has no hal/direct assembly, so the direct,
// flag and static modes are absent (see Absent).
const haveAsm = false

func addArchModes() {}
