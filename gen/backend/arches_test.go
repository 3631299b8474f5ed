package backend_test

// The backends register their parts of the spec (gen/<arch>/spec.go)
// when imported, and package backend's own tests, compiled into the same
// binary, iterate spec.Arches(). gen's TestArchImports checks this list
// against gen/main.go's backends.
import (
	_ "github.com/gohal/gohal/gen/amd64"
	_ "github.com/gohal/gohal/gen/arm64"
	_ "github.com/gohal/gohal/gen/loong64"
	_ "github.com/gohal/gohal/gen/riscv64"
	_ "github.com/gohal/gohal/gen/s390x"
)
