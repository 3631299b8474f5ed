package asmtest

import "testing"

func TestHasSeq(t *testing.T) {
	got := []string{"lbu t0,-699(t0)", "bnez t0,1c", "addw a3,a2,a1", "add a3,a2,a1", "ret"}
	for _, c := range []struct {
		want []string
		ok   bool
	}{
		{[]string{"lbu t0", "add", "ret"}, true},
		{[]string{"lbu t0", "ret", "add"}, false}, // out of order
		{[]string{"addw", "addw"}, false},         // one instruction matches once
		{[]string{"ad"}, false},                   // a prefix must end at a space or comma
		{nil, true},
	} {
		if ok := HasSeq(got, c.want...); ok != c.ok {
			t.Errorf("HasSeq(%q) = %v, want %v", c.want, ok, c.ok)
		}
	}
}
