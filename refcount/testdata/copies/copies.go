// Package copies copies a refcount.Count by value, for
// TestVetReportsCopies: go vet's copylocks check must report it.
package copies

import "github.com/gohal/gohal/refcount"

func Count(c *refcount.Count) refcount.Count { return *c }
