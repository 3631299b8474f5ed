//go:build purego || !(amd64 || s390x)

package hal_test

import "testing"

func storeReleaseAsm(*testing.B) {}
