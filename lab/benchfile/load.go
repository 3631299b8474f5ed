package benchfile

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"unicode"
	"unicode/utf8"
)

// Format is an input format of halbench compare.
type Format int

const (
	// FormatAuto asks Load to detect the format with DetectFormat.
	FormatAuto Format = iota
	// FormatColumns is ministat's format: numbers in a column.
	FormatColumns
	// FormatGoBench is the Go benchmark format.
	FormatGoBench
)

// String returns "auto", "columns" or "gobench".
func (f Format) String() string {
	switch f {
	case FormatAuto:
		return "auto"
	case FormatColumns:
		return "columns"
	case FormatGoBench:
		return "gobench"
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// DetectFormat reports whether data is in the Go benchmark format or in
// ministat's column format. It is the Go benchmark format when some line is
// a benchmark result ("Benchmark" and a name followed by more fields) or a
// unit metadata line ("Unit ..."), or when every non-blank line is a
// "key: value" configuration line. Neither kind of line can be valid
// ministat input in its first column, so a file ministat reads with its
// defaults is never taken for a Go benchmark file.
func DetectFormat(data []byte) Format {
	config, other := 0, 0
	for len(data) > 0 {
		var line []byte
		line, data, _ = bytes.Cut(data, []byte("\n"))
		line = bytes.TrimRight(line, "\r")
		fields := bytes.Fields(line)
		switch {
		case len(fields) == 0:
			continue
		case len(fields) >= 2 && bytes.HasPrefix(line, []byte("Benchmark")):
			return FormatGoBench
		case string(fields[0]) == "Unit":
			return FormatGoBench
		case isConfigLine(line):
			config++
		default:
			other++
		}
	}
	if config > 0 && other == 0 {
		return FormatGoBench
	}
	return FormatColumns
}

// isConfigLine reports whether benchfmt would read line as "key: value":
// the key starts with a lower-case letter and has no space or upper-case
// letter, and the colon is followed by the end of the line or a blank.
func isConfigLine(line []byte) bool {
	for i := 0; i < len(line); {
		r, n := utf8.DecodeRune(line[i:])
		if i == 0 && !unicode.IsLower(r) {
			return false
		}
		if unicode.IsSpace(r) || unicode.IsUpper(r) {
			return false
		}
		if i > 0 && r == ':' {
			rest := line[i+1:]
			return len(rest) == 0 || rest[0] == ' ' || rest[0] == '\t'
		}
		i += n
	}
	return false
}

// LoadOptions configures Load.
type LoadOptions struct {
	// Format is the format to read; FormatAuto detects it per file.
	Format Format
	// Column and Delims select the column of FormatColumns files; see
	// ParseColumns.
	Column int
	Delims string
	// Finite makes a NaN or infinite value an error (a *LineError
	// naming the line it is on), in either format. ministat accepts
	// "nan" and "inf" and prints a table of nan and a verdict.
	Finite bool
}

// File is the content of one input file.
type File struct {
	// Path is the name the file was loaded by.
	Path   string
	Format Format
	// Values holds a FormatColumns file's column.
	Values []float64
	// Bench holds a FormatGoBench file's series.
	Bench *GoBench
}

// Load reads and parses the file at path. A missing or unreadable file
// gives the *os.PathError of os.ReadFile, which names the file; syntax
// errors are *LineError values.
func Load(path string, opts LoadOptions) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return load(data, path, opts)
}

// LoadReader is Load for the content of r, named name in the File and in
// errors (halbench compare names standard input "<stdin>", as ministat
// does).
func LoadReader(r io.Reader, name string, opts LoadOptions) (*File, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: read: %w", name, err)
	}
	return load(data, name, opts)
}

func load(data []byte, path string, opts LoadOptions) (*File, error) {
	var err error
	f := &File{Path: path, Format: opts.Format}
	if f.Format == FormatAuto {
		f.Format = DetectFormat(data)
	}
	switch f.Format {
	case FormatColumns:
		var pts []point
		pts, err = parseColumns(bytes.NewReader(data), path, opts.Column, opts.Delims)
		for _, p := range pts {
			if err == nil && opts.Finite && !isFinite(p.value) {
				err = &LineError{path, p.line, fmt.Sprintf("%v in column %d is not a finite number", p.value, max(opts.Column, 1))}
			}
			f.Values = append(f.Values, p.value)
		}
	case FormatGoBench:
		f.Bench, err = ParseGoBench(bytes.NewReader(data), path)
		if err == nil && opts.Finite {
			err = f.Bench.checkFinite(path)
		}
	default:
		err = fmt.Errorf("%s: unknown format %v", path, f.Format)
	}
	if err != nil {
		return nil, err
	}
	return f, nil
}

func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// checkFinite returns a *LineError for the first line (in file order) that
// has a NaN or infinite value.
func (g *GoBench) checkFinite(file string) error {
	var bad *LineError
	for _, s := range g.Series {
		for i, v := range s.Values {
			if isFinite(v) || (bad != nil && bad.Line <= s.Lines[i]) {
				continue
			}
			bad = &LineError{file, s.Lines[i], fmt.Sprintf("Benchmark%s: %v %s is not a finite number", s.Name, v, s.Unit)}
		}
	}
	if bad != nil {
		return bad
	}
	return nil
}
