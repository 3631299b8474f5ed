module github.com/gohal/gohal/lab/peers

go 1.26.0

replace github.com/gohal/gohal => ../../

require (
	github.com/gohal/gohal v0.0.0-00010101000000-000000000000
	github.com/puzpuzpuz/xsync/v4 v4.5.0
)

require (
	github.com/klauspost/cpuid/v2 v2.4.2 // indirect
	golang.org/x/sys v0.50.0 // indirect
)
