package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gohal/gohal/hal"
)

// featuresReportJSON is the documented shape of `halbench features -json`:
// {"goarch": "...", "features": {...}, "selected": {"<op>": {"variant":
// "...", "reason": "..."}}}.
type featuresReportJSON struct {
	GOARCH   string         `json:"goarch"`
	Features map[string]any `json:"features"`
	Selected map[string]struct {
		Variant *string `json:"variant"`
		Reason  *string `json:"reason"`
	} `json:"selected"`
	Order []string `json:"order"`
}

// checkFeaturesShape checks r against what this process's hal chose.
func checkFeaturesShape(t *testing.T, r featuresReportJSON) {
	t.Helper()
	if r.GOARCH == "" {
		t.Error("goarch is empty")
	}
	for _, k := range []string{"goarch", "vendor", "brand", "flags", "cache_line", "counter_hz"} {
		if _, ok := r.Features[k]; !ok {
			t.Errorf("features lacks %q: %v", k, r.Features)
		}
	}
	if hz, _ := r.Features["counter_hz"].(float64); !(hz > 0) {
		t.Errorf("features.counter_hz = %v", r.Features["counter_hz"])
	}
	if _, ok := r.Features["flags"].(map[string]any); !ok {
		t.Errorf("features.flags is %T, want an object", r.Features["flags"])
	}
	sel := hal.Selected()
	if len(r.Selected) != len(sel) {
		t.Errorf("selected has %d ops, hal selected %d", len(r.Selected), len(sel))
	}
	for i, c := range sel {
		got, ok := r.Selected[c.Op]
		switch {
		case !ok:
			t.Errorf("selected lacks op %q", c.Op)
		case got.Variant == nil || *got.Variant != c.Variant:
			t.Errorf("selected[%q].variant = %v, want %q", c.Op, got.Variant, c.Variant)
		case got.Reason == nil || *got.Reason != c.Reason || c.Reason == "":
			t.Errorf("selected[%q].reason = %v, want %q", c.Op, got.Reason, c.Reason)
		}
		if i >= len(r.Order) || r.Order[i] != c.Op {
			t.Errorf("order[%d] is not %q: %v", i, c.Op, r.Order)
		}
	}
}

func TestFeaturesJSON(t *testing.T) {
	code, out, errOut := runHalbench(t, "features", "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r featuresReportJSON
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if dec.More() {
		t.Error("more than one JSON value")
	}
	// The top level holds exactly the documented keys (plus order).
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &top); err != nil {
		t.Fatal(err)
	}
	for k := range top {
		switch k {
		case "goarch", "features", "selected", "order":
		default:
			t.Errorf("unexpected top-level key %q", k)
		}
	}
	checkFeaturesShape(t, r)
}

func TestFeaturesText(t *testing.T) {
	code, out, _ := runHalbench(t, "features")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, c := range hal.Selected() {
		if !strings.Contains(out, c.Op) || !strings.Contains(out, c.Variant) || !strings.Contains(out, c.Reason) {
			t.Errorf("text lacks %s %s %q", c.Op, c.Variant, c.Reason)
		}
	}
	for _, w := range []string{"CPU:", "GOARCH:", "Features:", "Counter:", "OP", "VARIANT", "WHY"} {
		if !strings.Contains(out, w) {
			t.Errorf("text lacks %q", w)
		}
	}
}

// TestFeaturesHelp is issue 10 item 17: `features -h` exited 2 while
// `-h` and `compare -h` exit 0.
func TestFeaturesHelp(t *testing.T) {
	for _, args := range [][]string{{"features", "-h"}, {"features", "-help"}, {"-h"}} {
		code, out, errOut := runHalbench(t, args...)
		if code != 0 || out != "" || !strings.Contains(errOut, "usage: halbench") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

func TestHelp(t *testing.T) {
	code, out, _ := runHalbench(t, "help")
	if code != 0 || !strings.Contains(out, "halbench run -h") {
		t.Errorf("help: exit %d\n%s", code, out)
	}
}
