//go:build purego || !(amd64 || arm64)

package hal_test

// direct128: hal/direct has no 128-bit functions in this build.
var direct128 direct128Funcs
