package hal_test

import (
	"os"
	"runtime"
	"strings"
	"testing"
)

// TestExpected128Variants checks, when the environment says what the CPU
// is, that the 128-bit ops got the variants that CPU should get:
// GOHAL_EXPECT_128 lists op=variant pairs (CI sets
// "load128=portable,store128=portable,cas128=portable" under qemu-x86_64
// -cpu qemu64,-cx16, a CPU without CMPXCHG16B and AVX), and on arm64
// GOHAL_EXPECT_LSE (as for TestExpectedVariants) gives lse or llsc for
// load128 and store128.
func TestExpected128Variants(t *testing.T) {
	want := map[string]string{}
	if s := os.Getenv("GOHAL_EXPECT_128"); s != "" {
		for _, item := range strings.Split(s, ",") {
			op, v, ok := strings.Cut(item, "=")
			if !ok {
				t.Fatalf("GOHAL_EXPECT_128=%q: item %q is not op=variant", s, item)
			}
			want[op] = v
		}
	}
	if runtime.GOARCH == "arm64" && !isPortable() {
		switch os.Getenv("GOHAL_EXPECT_LSE") {
		case "1":
			want["load128"], want["store128"] = "lse", "lse"
		case "0":
			want["load128"], want["store128"] = "llsc", "llsc"
		}
	}
	if len(want) == 0 {
		t.Skip("neither GOHAL_EXPECT_128 nor (on arm64) GOHAL_EXPECT_LSE is set")
	}
	for op, v := range want {
		if got := selectedVariant(op); got != v {
			t.Errorf("%s selected %q, want %q", op, got, v)
		}
	}
}
