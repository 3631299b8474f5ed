package backend_test

// Importing gen/arches registers every backend's part of the spec
// (gen/<arch>/spec.go), so that this package's tests, which iterate
// spec.Arches(), cover every architecture gen writes.
import _ "github.com/gohal/gohal/gen/arches"
