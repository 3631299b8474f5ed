module github.com/gohal/gohal/gen

go 1.26.0

replace github.com/gohal/gohal => ../

require (
	github.com/gohal/gohal v0.0.0-00010101000000-000000000000
	github.com/mmcloughlin/avo v0.6.0
)

require (
	github.com/klauspost/cpuid/v2 v2.4.2 // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)
