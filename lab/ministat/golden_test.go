package ministat

import (
	"bufio"
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The golden files under testdata/golden were produced by the real ministat
// (Debian package ministat 20150715-1+b1, /usr/bin/ministat) run in
// testdata with the arguments listed in goldenCases. Regenerate them with
//
//	go test ./lab/ministat -run TestGolden -update
var update = flag.Bool("update", false, "regenerate testdata/golden with /usr/bin/ministat")

const ministatPath = "/usr/bin/ministat"

var goldenCases = []struct {
	name string
	args string
}{
	{"manpage", "-s -w 60 iguana chameleon"},
	{"manpage-c80", "-s -w 60 -c 80 iguana chameleon"},
	{"manpage-default", "iguana chameleon"},
	{"upper-median", "even4 skew4"},
	{"significant", "small3 pos"},
	{"negative-variance-nan", "const01 const03"},
	{"nan-pooled", "const01 const1"},
	{"zero-span", "const1 const1"},
	{"stacked-dots-hidden", "stack small3"},
	{"stacked-dots", "small3 stack"},
	{"zero-mean-base", "zeromean pos"},
	{"seven", "run1 run2 run3 run4 run5 run6 run7"},
	{"seven-stack", "-s run1 run2 run3 run4 run5 run6 run7"},
	{"seven-A", "-A run1 run2 run3 run4 run5 run6 run7"},
	{"seven-n", "-n run1 run2 run3 run4 run5 run6 run7"},
	{"three-w40", "-w 40 run1 run2 run3"},
	{"two-w2", "-w 2 small3 pos"},
	{"two-w3", "-w 3 small3 pos"},
	{"one", "run1"},
	{"one-n", "-n run1"},
	{"c90", "-c 90 run1 run2"},
	{"c98", "-c 98 run1 run3"},
	{"c99", "-c 99 run1 run3"},
	{"c99.5", "-c 99.5 run1 run3"},
	{"df118-inf-row", "big1 big2"},
	{"df118-c80", "-c 80 big1 big2"},
	{"df118-c99.5", "-c 99.5 -s big1 big2"},
	{"df100", "n51a n51b"},
	{"df101-inf-row", "n51a n52b"},
	{"df101-c80", "-A -c 80 n51a n52b"},
	{"huge", "huge huge2"},
	{"tiny", "tiny tiny2"},
	{"negative", "-s neg neg2"},
	{"wide", "-w 120 neg neg2 run1"},
}

// parseArgs turns a ministat command line into Options and file names.
func parseArgs(t *testing.T, args string) (Options, []string) {
	t.Helper()
	var o Options
	f := strings.Fields(args)
	var files []string
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case "-s":
			o.Stack = true
		case "-A":
			o.NoPlot = true
		case "-n":
			o.StatsOnly = true
		case "-w", "-c":
			v, err := strconv.ParseFloat(f[i+1], 64)
			if err != nil {
				t.Fatal(err)
			}
			if f[i] == "-w" {
				o.Width = int(v)
			} else {
				o.Confidence = v
			}
			i++
		default:
			files = append(files, f[i])
		}
	}
	return o, files
}

// readSample reads one number per line.
func readSample(t *testing.T, path string) Sample {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := Sample{Name: filepath.Base(path)}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		v, err := strconv.ParseFloat(strings.TrimSpace(sc.Text()), 64)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		s.Values = append(s.Values, v)
	}
	return s
}

func TestGolden(t *testing.T) {
	if *update {
		if _, err := os.Stat(ministatPath); err != nil {
			t.Fatalf("-update needs %s: %v", ministatPath, err)
		}
		if err := os.MkdirAll(filepath.Join("testdata", "golden"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range goldenCases {
		t.Run(tc.name, func(t *testing.T) {
			golden := filepath.Join("testdata", "golden", tc.name+".txt")
			if *update {
				cmd := exec.Command(ministatPath, strings.Fields(tc.args)...)
				cmd.Dir = "testdata"
				out, err := cmd.Output()
				if err != nil {
					t.Fatalf("ministat %s: %v", tc.args, err)
				}
				if err := os.WriteFile(golden, out, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			opts, files := parseArgs(t, tc.args)
			var samples []Sample
			for _, f := range files {
				samples = append(samples, readSample(t, filepath.Join("testdata", f)))
			}
			var got bytes.Buffer
			if err := Write(&got, samples, opts); err != nil {
				t.Fatal(err)
			}
			if got.String() != string(want) {
				t.Errorf("ministat %s: output differs\n--- got\n%s--- want (ministat)\n%s", tc.args, got.String(), want)
			}
		})
	}
}
