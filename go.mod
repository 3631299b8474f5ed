module github.com/gohal/gohal

go 1.26.0

require (
	github.com/klauspost/cpuid/v2 v2.4.2
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da
	golang.org/x/sys v0.50.0
	gonum.org/v1/gonum v0.17.0
)

require github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
