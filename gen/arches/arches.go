// Package arches lists gen's backends, one per GOARCH with generated
// assembly. Importing it registers every architecture's part of the op
// spec (gen/<arch>/spec.go calls spec.Register from init).
//
// A new architecture is its folder gen/<arch>/ plus one import and one line
// of Backends here (ARCHITECTURES.md at the repository root); gen's
// TestBackendsListed fails when a gen/<arch>/ folder registers a spec that
// is not listed.
package arches

import (
	i386 "github.com/gohal/gohal/gen/386"
	"github.com/gohal/gohal/gen/amd64"
	"github.com/gohal/gohal/gen/arm"
	"github.com/gohal/gohal/gen/arm64"
	"github.com/gohal/gohal/gen/backend"
	"github.com/gohal/gohal/gen/loong64"
	"github.com/gohal/gohal/gen/mips"
	"github.com/gohal/gohal/gen/mips64"
	"github.com/gohal/gohal/gen/mips64le"
	"github.com/gohal/gohal/gen/mipsle"
	"github.com/gohal/gohal/gen/ppc64"
	"github.com/gohal/gohal/gen/ppc64le"
	"github.com/gohal/gohal/gen/riscv64"
	"github.com/gohal/gohal/gen/s390x"
)

// Backends lists one constructor per architecture, in the order gen runs
// them.
var Backends = []func() backend.Backend{
	func() backend.Backend { return amd64.New() },
	func() backend.Backend { return arm64.New() },
	func() backend.Backend { return riscv64.New() },
	func() backend.Backend { return loong64.New() },
	func() backend.Backend { return s390x.New() },
	func() backend.Backend { return ppc64le.New() },
	func() backend.Backend { return arm.New() },
	func() backend.Backend { return i386.New() },
	func() backend.Backend { return ppc64.New() },
	func() backend.Backend { return mips64.New() },
	func() backend.Backend { return mips64le.New() },
	func() backend.Backend { return mips.New() },
	func() backend.Backend { return mipsle.New() },
}
