package gohal_test

import (
	"go/ast"
	"go/build"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// A docPkg is what the doc-link test knows of one package: its name, the
// import path each name its files import stands for, its exported
// top-level names, and its exported methods and fields by type.
type docPkg struct {
	name     string
	imports  map[string]string          // local name → import path
	exported map[string]bool            // exported top-level names
	members  map[string]map[string]bool // exported type → its exported methods and fields
	comments []docComment               // the doc comments, library packages only
}

// A docComment is one doc comment and where it is.
type docComment struct {
	pos  token.Position
	text string
}

// loadDocPkg parses the non-test Go files of dir (every build's: the
// parser ignores build constraints) and collects what docPkg holds; a
// file of another package (package main behind an ignore tag) is skipped.
func loadDocPkg(dir string, withComments bool) (*docPkg, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	p := &docPkg{imports: map[string]string{}, exported: map[string]bool{}, members: map[string]map[string]bool{}}
	member := func(typ, name string) {
		if !ast.IsExported(typ) || !ast.IsExported(name) {
			return
		}
		if p.members[typ] == nil {
			p.members[typ] = map[string]bool{}
		}
		p.members[typ][name] = true
	}
	fset := token.NewFileSet()
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		mode := parser.SkipObjectResolution
		if withComments {
			mode |= parser.ParseComments
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, mode)
		if err != nil {
			return nil, err
		}
		if p.name == "" || p.name == "main" {
			p.name = f.Name.Name
		} else if f.Name.Name != p.name {
			continue
		}
		for _, imp := range f.Imports {
			ip, _ := strconv.Unquote(imp.Path.Value)
			local := path.Base(ip)
			if imp.Name != nil {
				local = imp.Name.Name
			}
			p.imports[local] = ip
		}
		add := func(cg *ast.CommentGroup) {
			if withComments && cg != nil {
				p.comments = append(p.comments, docComment{fset.Position(cg.Pos()), cg.Text()})
			}
		}
		add(f.Doc)
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				add(d.Doc)
				if d.Recv == nil {
					if d.Name.IsExported() {
						p.exported[d.Name.Name] = true
					}
					continue
				}
				t := d.Recv.List[0].Type
				for {
					switch x := t.(type) {
					case *ast.StarExpr:
						t = x.X
						continue
					case *ast.IndexExpr:
						t = x.X
						continue
					case *ast.IndexListExpr:
						t = x.X
						continue
					}
					break
				}
				if id, ok := t.(*ast.Ident); ok {
					member(id.Name, d.Name.Name)
				}
			case *ast.GenDecl:
				add(d.Doc)
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						add(s.Doc)
						if s.Name.IsExported() {
							p.exported[s.Name.Name] = true
						}
						var fields *ast.FieldList
						switch t := s.Type.(type) {
						case *ast.StructType:
							fields = t.Fields
						case *ast.InterfaceType:
							fields = t.Methods
						}
						if fields != nil {
							for _, fl := range fields.List {
								add(fl.Doc)
								for _, n := range fl.Names {
									member(s.Name.Name, n.Name)
								}
								if len(fl.Names) == 0 { // embedded: its name is the type's
									t := fl.Type
									if st, ok := t.(*ast.StarExpr); ok {
										t = st.X
									}
									switch x := t.(type) {
									case *ast.Ident:
										member(s.Name.Name, x.Name)
									case *ast.SelectorExpr:
										member(s.Name.Name, x.Sel.Name)
									}
								}
							}
						}
					case *ast.ValueSpec:
						add(s.Doc)
						for _, n := range s.Names {
							if n.IsExported() {
								p.exported[n.Name] = true
							}
						}
					}
				}
			}
		}
	}
	if p.name == "" {
		return nil, nil
	}
	return p, nil
}

// libraryDirs returns the directories of the library's packages: every
// package of the module but the lab (lab/), the commands (cmd/), internal
// packages and the generator's module (gen/).
func libraryDirs(t *testing.T) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(".", func(dir string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if dir != "." {
			if name == "testdata" || name == "internal" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if dir == "lab" || dir == "cmd" {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				return filepath.SkipDir // another module: gen
			}
		}
		dirs = append(dirs, dir)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// TestDocLinks fails on a doc link in a library package's doc comments
// ([Name], [Type.Method], [pkg.Name], [pkg.Type.Method], [import/path],
// with an optional *) that names nothing exported: a misspelt or removed
// name, or an unexported one such as [spinBudget], which go doc shows as
// plain bracketed text. Every comment attached to a declaration counts,
// exported or not.
func TestDocLinks(t *testing.T) {
	dirs := libraryDirs(t)
	if len(dirs) < 8 {
		t.Fatalf("found %d library packages (%q): the walk did not start at the module root", len(dirs), dirs)
	}
	// The public packages under hal, haltool (the tooling) included, are
	// library packages: their links are checked like hal's.
	for _, want := range []string{"hal", filepath.Join("hal", "direct"), filepath.Join("hal", "haltool")} {
		if !slices.Contains(dirs, want) {
			t.Errorf("package %s is not among the library packages checked (%q)", want, dirs)
		}
	}
	cache := map[string]*docPkg{} // by import path
	var load func(ip string) *docPkg
	load = func(ip string) *docPkg {
		if p, ok := cache[ip]; ok {
			return p
		}
		var dir string
		switch {
		case ip == modulePath:
			dir = "."
		case strings.HasPrefix(ip, modulePath+"/"):
			dir = filepath.FromSlash(strings.TrimPrefix(ip, modulePath+"/"))
		default:
			if bp, err := build.Default.Import(ip, ".", build.FindOnly); err == nil && bp.Goroot {
				dir = bp.Dir
			} else if out, err := exec.Command("go", "list", "-f", "{{.Dir}}", ip).Output(); err == nil {
				dir = strings.TrimSpace(string(out))
			}
		}
		var p *docPkg
		if dir != "" {
			var err error
			if p, err = loadDocPkg(dir, false); err != nil {
				t.Logf("%s: %v", ip, err)
				p = nil
			}
		}
		cache[ip] = p
		return p
	}

	var broken []string
	for _, dir := range dirs {
		pkg, err := loadDocPkg(dir, true)
		if err != nil {
			t.Fatal(err)
		}
		if pkg == nil {
			continue
		}
		ip := modulePath
		if dir != "." {
			ip += "/" + filepath.ToSlash(dir)
		}
		// Every bracketed name of link shape becomes a DocLink: the
		// lookups accept all, and the check below resolves them.
		pr := &comment.Parser{
			LookupPackage: func(name string) (string, bool) { return name, token.IsIdentifier(name) },
			LookupSym:     func(recv, name string) bool { return true },
		}
		seen := map[string]bool{}
		for _, c := range pkg.comments {
			for _, l := range docLinks(pr.Parse(c.text)) {
				if why := resolveDocLink(pkg, ip, l, load); why != "" {
					msg := c.pos.Filename + ": [" + linkText(l) + "] " + why
					if !seen[msg] {
						seen[msg] = true
						broken = append(broken, msg)
					}
				}
			}
		}
	}
	sort.Strings(broken)
	for _, b := range broken {
		t.Error(b)
	}
}

// linkText is l as it was written, less any *.
func linkText(l *comment.DocLink) string {
	s := l.ImportPath
	if l.Recv != "" {
		if s != "" {
			s += "."
		}
		s += l.Recv
	}
	if l.Name != "" {
		if s != "" {
			s += "."
		}
		s += l.Name
	}
	return s
}

// resolveDocLink returns why l, in a doc comment of pkg (import path ip),
// names nothing exported, or "" when it names something.
func resolveDocLink(pkg *docPkg, ip string, l *comment.DocLink, load func(string) *docPkg) string {
	target, tip := pkg, ip
	if l.ImportPath != "" {
		tip = l.ImportPath
		if !strings.Contains(tip, "/") {
			switch {
			case pkg.imports[tip] != "":
				tip = pkg.imports[tip]
			case tip == pkg.name:
				tip = ip
			default:
				std, ok := comment.DefaultLookupPackage(tip)
				if !ok {
					return "names nothing exported: " + tip + " is an unexported name, or no package this one imports nor a standard one"
				}
				tip = std
			}
		}
		if tip != ip {
			if target = load(tip); target == nil {
				return "names package " + tip + ", which was not found"
			}
		}
		if l.Name == "" {
			return ""
		}
	}
	if l.Recv != "" {
		if !target.exported[l.Recv] {
			return "names " + l.Recv + ", which " + tip + " does not export"
		}
		if !target.members[l.Recv][l.Name] {
			return "names " + l.Name + ", which is no exported method or field of " + tip + "." + l.Recv
		}
		return ""
	}
	if !target.exported[l.Name] {
		return "names " + l.Name + ", which " + tip + " does not export"
	}
	return ""
}

// docLinks returns the doc links of d, in order.
func docLinks(d *comment.Doc) []*comment.DocLink {
	var out []*comment.DocLink
	var text func([]comment.Text)
	text = func(ts []comment.Text) {
		for _, t := range ts {
			switch t := t.(type) {
			case *comment.DocLink:
				out = append(out, t)
			case *comment.Link:
				text(t.Text)
			}
		}
	}
	var block func(comment.Block)
	block = func(b comment.Block) {
		switch b := b.(type) {
		case *comment.Paragraph:
			text(b.Text)
		case *comment.Heading:
			text(b.Text)
		case *comment.List:
			for _, it := range b.Items {
				for _, c := range it.Content {
					block(c)
				}
			}
		}
	}
	for _, b := range d.Content {
		block(b)
	}
	return out
}

// TestResolveDocLink checks the resolver on a made-up package: what it
// exports resolves, and a misspelt, unexported or unknown name does not.
func TestResolveDocLink(t *testing.T) {
	pkg := &docPkg{
		name:     "hal",
		imports:  map[string]string{"atomic": "sync/atomic"},
		exported: map[string]bool{"Uint64": true, "Fence": true},
		members:  map[string]map[string]bool{"Uint64": {"Load": true}},
	}
	other := &docPkg{name: "atomic", exported: map[string]bool{"Int64": true}, members: map[string]map[string]bool{}}
	load := func(ip string) *docPkg {
		if ip == "sync/atomic" {
			return other
		}
		return nil
	}
	pr := &comment.Parser{
		LookupPackage: func(name string) (string, bool) { return name, token.IsIdentifier(name) },
		LookupSym:     func(recv, name string) bool { return true },
	}
	for text, ok := range map[string]bool{
		"[Fence]":             true,
		"[Uint64.Load]":       true,
		"[*Uint64]":           true,
		"[atomic.Int64]":      true,
		"[sync/atomic]":       true,
		"[hal.Fence]":         true,
		"[SpinLockCap]":       false,
		"[Uint64.Lod]":        false,
		"[spinBudget]":        false,
		"[atomic.Nope]":       false,
		"[example.com/x.Y]":   false,
		"a[i] is not a link":  true,
		"[two words] no link": true,
	} {
		links := docLinks(pr.Parse(text))
		got := true
		for _, l := range links {
			if resolveDocLink(pkg, "example/hal", l, load) != "" {
				got = false
			}
		}
		if got != ok {
			t.Errorf("%q: resolves %v, want %v (links %+v)", text, got, ok, links)
		}
	}
}

// TestRootDocListsLibrary holds the root package's doc to listing every
// library package (all but internal ones) as a doc link.
func TestRootDocListsLibrary(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	text := f.Doc.Text()
	for _, dir := range libraryDirs(t) {
		if dir == "." {
			continue
		}
		if p, err := loadDocPkg(dir, false); err != nil || p == nil {
			continue
		}
		if link := "[" + modulePath + "/" + filepath.ToSlash(dir) + "]"; !strings.Contains(text, link) {
			t.Errorf("doc.go: the root package's doc does not list %s", link)
		}
	}
}
