// Package benchfile reads the two input formats of halbench compare and
// writes the Go benchmark format of halbench -format gobench.
//
// The column format is ministat's: numbers, one observation per line, the
// column chosen by a 1-based index and separated by any of a set of
// delimiter bytes. The Go benchmark format is the one `go test -bench`
// prints and golang.org/x/perf/benchfmt parses: "key: value" configuration
// lines, "BenchmarkName-N iters value unit [value unit...]" result lines and
// "Unit unit key=value..." metadata lines.
package benchfile

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
)

// DefaultDelims are ministat's default column delimiters.
const DefaultDelims = " \t"

// LineError is an error at a line of an input file.
type LineError struct {
	File string
	Line int // 1-based
	Msg  string
}

// Error returns "FILE:LINE: MSG".
func (e *LineError) Error() string {
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// point is one value read from a column file and the line it came from.
type point struct {
	line  int
	value float64
}

// ParseColumns reads ministat's input format from r and returns the values
// of the given column (1-based; 0 means 1) in input order. file names the
// input in errors.
//
// It reads each line exactly as ministat's ReadSet does: trailing white
// space is dropped (so CRLF files work), the line is split into fields at
// any of the bytes in delims ("" means DefaultDelims; runs of delimiters
// count as one, as with strtok(3)), and the line is skipped when it has
// fewer fields than column or when a field up to and including the column
// begins with '#'. The chosen field must be a number in strtod(3)'s
// syntax, in full ("1.5", "-2e3", "0x1p4", "inf", "nan"); anything else is
// a *LineError naming the line and quoting at most 80 bytes of the field,
// where ministat exits with "Invalid data on line N". Unlike ministat, a line longer than 8191 bytes is not split in
// two and a NUL byte ends the line only for the purpose of parsing, as it
// does in C.
func ParseColumns(r io.Reader, file string, column int, delims string) ([]float64, error) {
	pts, err := parseColumns(r, file, column, delims)
	if err != nil {
		return nil, err
	}
	vals := make([]float64, len(pts))
	for i, p := range pts {
		vals[i] = p.value
	}
	return vals, nil
}

func parseColumns(r io.Reader, file string, column int, delims string) ([]point, error) {
	if column == 0 {
		column = 1
	}
	if column < 0 {
		return nil, fmt.Errorf("%s: column %d: columns are numbered from 1", file, column)
	}
	if delims == "" {
		delims = DefaultDelims
	}
	br := bufio.NewReader(r)
	var pts []point
	for line := 1; ; line++ {
		buf, err := br.ReadBytes('\n')
		if len(buf) == 0 && err != nil {
			if errors.Is(err, io.EOF) {
				return pts, nil
			}
			return nil, &LineError{file, line, "read: " + err.Error()}
		}
		if i := bytes.IndexByte(buf, 0); i >= 0 {
			buf = buf[:i] // C strings end at NUL
		}
		for len(buf) > 0 && cIsSpace(buf[len(buf)-1]) {
			buf = buf[:len(buf)-1]
		}
		if tok, ok := field(string(buf), column, delims); ok {
			v, n := strtod(tok)
			if n != len(tok) {
				return nil, &LineError{file, line, fmt.Sprintf("invalid number %s in column %d", Quote(tok), column)}
			}
			pts = append(pts, point{line, v})
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return pts, nil
			}
			return nil, &LineError{file, line + 1, "read: " + err.Error()}
		}
	}
}

// field returns the column-th strtok field of line, or false when the line
// has fewer fields or a comment field ('#') comes first.
func field(line string, column int, delims string) (string, bool) {
	isDelim := func(c byte) bool { return strings.IndexByte(delims, c) >= 0 }
	i := 0
	for n := 1; ; n++ {
		for i < len(line) && isDelim(line[i]) {
			i++
		}
		if i == len(line) || line[i] == '#' {
			return "", false
		}
		j := i
		for j < len(line) && !isDelim(line[j]) {
			j++
		}
		if n == column {
			return line[i:j], true
		}
		i = j
	}
}
