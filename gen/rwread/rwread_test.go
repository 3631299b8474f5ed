package rwread

import (
	"debug/dwarf"
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestLayoutMatchesRuntime builds a program for Layout's GOOS/amd64 with
// the toolchain that runs the test and reads the offsets of g.m, m.p and
// p.id from its runtime's DWARF: they must be Layout's wherever that
// toolchain's release is in Layout's range, since the generated file
// builds there. (percpu also checks the P id at init, but a wrong g.m or
// m.p could fault before the check can disagree.)
func TestLayoutMatchesRuntime(t *testing.T) {
	out, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		t.Fatalf("go env GOVERSION: %v", err)
	}
	version := strings.TrimSpace(string(out))
	var minor int
	if _, err := fmt.Sscanf(version, "go1.%d", &minor); err != nil {
		t.Skipf("toolchain %q: not a release", version)
	}
	if minor < Layout.MinMinor || minor > Layout.MaxMinor {
		t.Skipf("toolchain %s is outside Layout's Go 1.%d to 1.%d: the generated file does not build with it", version, Layout.MinMinor, Layout.MaxMinor)
	}
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":  "module layout\n\ngo 1.26\n",
		"main.go": "package main\n\nfunc main() {}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "layout")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS="+Layout.GOOS, "GOARCH=amd64", "CGO_ENABLED=0", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := f.DWARF()
	if err != nil {
		t.Fatalf("%s: DWARF: %v", bin, err)
	}
	got := memberOffsets(t, d, map[string]string{"runtime.g": "m", "runtime.m": "p", "runtime.p": "id"})
	// The assembly loads g.m and m.p as 8-byte words and p.id as an
	// int32 (MOVLQSX).
	for _, c := range []struct {
		field      string
		want, size int
	}{{"runtime.g.m", Layout.GM, 8}, {"runtime.m.p", Layout.MP, 8}, {"runtime.p.id", Layout.PID, 4}} {
		m, ok := got[c.field]
		switch {
		case !ok:
			t.Errorf("%s: not in %s's DWARF", c.field, version)
		case m.offset != c.want:
			t.Errorf("%s is at offset %d under %s, Layout says %d: regenerate with the runtime's go_asm.h offsets", c.field, m.offset, version, c.want)
		case m.size != c.size:
			t.Errorf("%s is %d bytes under %s; the assembly loads %d", c.field, m.size, version, c.size)
		}
	}
	t.Logf("%s on %s/amd64 (test run on %s): %v", version, Layout.GOOS, runtime.GOARCH, got)
}

// memberInfo is a struct member's byte offset and size.
type memberInfo struct{ offset, size int }

// memberOffsets returns, for each struct type named in fields (type name
// to member name), that member's offset and size, keyed "type.member".
func memberOffsets(t *testing.T, d *dwarf.Data, fields map[string]string) map[string]memberInfo {
	t.Helper()
	got := map[string]memberInfo{}
	r := d.Reader()
	for {
		e, err := r.Next()
		if err != nil {
			t.Fatalf("reading DWARF: %v", err)
		}
		if e == nil {
			return got
		}
		if e.Tag != dwarf.TagStructType {
			continue
		}
		name, _ := e.Val(dwarf.AttrName).(string)
		member, ok := fields[name]
		if !ok || !e.Children {
			continue
		}
		for {
			c, err := r.Next()
			if err != nil {
				t.Fatalf("reading DWARF: %v", err)
			}
			if c == nil || c.Tag == 0 {
				break
			}
			if n, _ := c.Val(dwarf.AttrName).(string); c.Tag == dwarf.TagMember && n == member {
				off, ok1 := c.Val(dwarf.AttrDataMemberLoc).(int64)
				typ, ok2 := c.Val(dwarf.AttrType).(dwarf.Offset)
				if ok1 && ok2 {
					ty, err := d.Type(typ)
					if err != nil {
						t.Fatalf("%s.%s's type: %v", name, member, err)
					}
					got[name+"."+member] = memberInfo{int(off), int(ty.Size())}
				}
			}
			if c.Children {
				r.SkipChildren()
			}
		}
	}
}
