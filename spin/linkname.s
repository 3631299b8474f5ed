// This file is empty on purpose: a package with a body-less function
// declaration (the go:linkname of canSpin in wait.go) must have an
// assembly file, or the compiler reports a missing function body.
