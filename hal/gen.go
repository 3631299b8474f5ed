package hal

// The assembly (asm_<arch>.s) and its Go declarations (zasm_<arch>.go) are
// generated from the op spec in gen/spec by the generator module in gen/,
// which keeps avo out of this module's dependencies.
//go:generate sh -c "cd ../gen && go run . -out ../hal"
