package hal

// The files of this package named z* and asm_<arch>.s, and those of
// hal/direct and lab/probe named z*, are generated from the op spec
// in gen/spec by the generator module in gen/, which keeps avo out of this
// module's dependencies; gen/README.md lists them. The
// generator also deletes any generated file it no longer writes.
//go:generate sh -c "cd ../gen && go run . -out ../hal"
