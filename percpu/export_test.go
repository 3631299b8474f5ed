package percpu

import "github.com/gohal/gohal/internal/cacheline"

// lineSize is the cache-line padding unit (64 bytes on amd64, 128 on
// arm64), which the tests check the per-P slots against. Only tests use
// it, so it lives here rather than in the package.
const lineSize = cacheline.Size
