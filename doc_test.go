package gohal_test

import (
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxSynopsisWords is the most words a package's first doc sentence (its
// synopsis, what go doc and pkg.go.dev show in a package list) may have:
// x/sys/cpu's has 9; hal's once had 62.
const maxSynopsisWords = 20

// TestPackageDocSynopsis walks every package under the module root (the
// library, the lab, and the generator's and peers' modules beside them),
// reads its package doc comment with go/parser, and fails on a package
// without one or whose first sentence, as go/doc cuts it, is over
// maxSynopsisWords words.
func TestPackageDocSynopsis(t *testing.T) {
	seen := 0
	err := filepath.WalkDir(".", func(dir string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if name := d.Name(); dir != "." && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		ents, err := os.ReadDir(dir)
		if err != nil {
			return err
		}
		var pkg, text string
		for _, e := range ents {
			n := e.Name()
			if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, n), nil, parser.PackageClauseOnly|parser.ParseComments)
			if err != nil {
				return err
			}
			pkg = f.Name.Name
			if f.Doc != nil {
				text += f.Doc.Text()
			}
		}
		if pkg == "" {
			return nil // no Go package here
		}
		seen++
		if strings.TrimSpace(text) == "" {
			t.Errorf("%s: package %s has no doc comment", dir, pkg)
			return nil
		}
		syn := new(doc.Package).Synopsis(text)
		if n := len(strings.Fields(syn)); n > maxSynopsisWords {
			t.Errorf("%s: the first sentence of package %s's doc has %d words, want at most %d:\n\t%s", dir, pkg, n, maxSynopsisWords, syn)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 10 {
		t.Fatalf("found %d packages: the walk did not start at the module root", seen)
	}
}
