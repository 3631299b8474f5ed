package cacheline

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestTailIsWholeLines checks the padding rule's arithmetic: words of any
// size followed by their tail make a whole number of lines, one line for
// words that fit in one.
func TestTailIsWholeLines(t *testing.T) {
	type w1 struct{ b byte }
	type w8 struct{ v uint64 }
	type w24 struct{ a, b, c uint64 }
	type wLine struct{ b [Size]byte }
	type wMore struct {
		b [Size + 1]byte
	}
	sizes := []uintptr{
		unsafe.Sizeof(struct {
			w1
			_ [Size - unsafe.Sizeof(w1{})%Size]byte
		}{}),
		unsafe.Sizeof(struct {
			w8
			_ [Size - unsafe.Sizeof(w8{})%Size]byte
		}{}),
		unsafe.Sizeof(struct {
			_ Line
			w24
			_ [Size - unsafe.Sizeof(w24{})%Size]byte
		}{}),
		unsafe.Sizeof(struct {
			wLine
			_ [Size - unsafe.Sizeof(wLine{})%Size]byte
		}{}),
		unsafe.Sizeof(struct {
			wMore
			_ [Size - unsafe.Sizeof(wMore{})%Size]byte
		}{}),
	}
	want := []uintptr{Size, Size, 2 * Size, 2 * Size, 2 * Size}
	for i, got := range sizes {
		if got%Size != 0 || got != want[i] {
			t.Errorf("shape %d: %d bytes, want %d (a multiple of %d)", i, got, want[i], Size)
		}
	}
	if Size < 64 || Size&(Size-1) != 0 {
		t.Errorf("Size = %d, want a power of two of at least 64", Size)
	}
}

// pending lists the files whose padding their owners have yet to write
// the package's way; each entry is removed when its file is converted.
var pending = map[string]bool{}

// TestPaddingIsWrittenOneWay reads every hand-written Go file of the
// repository and checks each blank byte-array field that pads to a cache
// line: a whole line is written Line, and a tail is the package's
// expression over the size of the field just before it, never a size
// added up by hand (which goes stale when a field is added, and which
// counts 64-byte lines where arm64 pads to 128).
func TestPaddingIsWrittenOneWay(t *testing.T) {
	root := filepath.Join("..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Skipf("no repository around the package: %v", err)
	}
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "results") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasPrefix(name, "z") {
			return nil // generated files are the generator's business
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		files++
		for _, bad := range badPads(fset, f) {
			if pending[rel] {
				t.Logf("%s:%s (pending)", rel, bad)
				continue
			}
			t.Errorf("%s:%s", rel, bad)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("read %d Go files: not the repository", files)
	}
}

// badPads returns "line: reason" for each padding field of f that is not
// written the package's way.
func badPads(fset *token.FileSet, f *ast.File) []string {
	var bad []string
	ast.Inspect(f, func(n ast.Node) bool {
		st, ok := n.(*ast.StructType)
		if !ok {
			return true
		}
		fields := st.Fields.List
		for i, fl := range fields {
			if len(fl.Names) != 1 || fl.Names[0].Name != "_" {
				continue
			}
			at, ok := fl.Type.(*ast.ArrayType)
			if !ok || at.Len == nil || !isIdent(at.Elt, "byte") || !isLinePad(at.Len) {
				continue
			}
			line := fset.Position(fl.Pos()).Line
			n := expr(fset, at.Len)
			switch {
			case n == "cacheline.Size" || n == "Size" || n == "lineSize":
				bad = append(bad, strconv.Itoa(line)+": ["+n+"]byte, a whole line, is written cacheline.Line")
			case i == 0:
				bad = append(bad, strconv.Itoa(line)+": tail ["+n+"]byte pads nothing before it")
			default:
				want := tail(expr(fset, fields[i-1].Type))
				if n != want && n != strings.ReplaceAll(want, "cacheline.", "") {
					bad = append(bad, strconv.Itoa(line)+": ["+n+"]byte, want ["+want+
						"]byte (the padded fields grouped in a struct, that field)")
				}
			}
		}
		return true
	})
	return bad
}

// tail returns the tail expression after a field of type typ: unsafe.Sizeof
// of a zero value, typ(0) for a predeclared number type, typ{} otherwise.
func tail(typ string) string {
	zero := typ + "{}"
	switch typ {
	case "byte", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
		"int", "uint", "uintptr", "float32", "float64", "rune":
		zero = typ + "(0)"
	}
	return "cacheline.Size - unsafe.Sizeof(" + zero + ")%cacheline.Size"
}

// isLinePad reports whether an array length is about cache lines: it
// names a line size or is a literal of 32 or more.
func isLinePad(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			switch n.Name {
			case "Size", "lineSize", "cellSize", "CacheLinePadSize", "Line":
				found = true
			}
		case *ast.BasicLit:
			if v, err := strconv.Atoi(n.Value); err == nil && v >= 32 {
				found = true
			}
		}
		return true
	})
	return found
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

func expr(fset *token.FileSet, e ast.Expr) string {
	var b bytes.Buffer
	printer.Fprint(&b, fset, e)
	return b.String()
}
