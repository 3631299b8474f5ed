package dispatch

import (
	"strconv"
	"unicode/utf8"
)

// maxQuoted is how many bytes of an offending GOHAL text an error message
// quotes: a 100 KB value must not become a 100 KB line.
const maxQuoted = 80

// quote returns s quoted as %q does, cut to its first maxQuoted bytes (at
// a character boundary) when it is longer, followed by "..." and the full
// length, as in "aaaa"... (100000 bytes).
func quote(s string) string {
	if len(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	cut := maxQuoted
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "... (" + strconv.Itoa(len(s)) + " bytes)"
}
