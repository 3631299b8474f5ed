package benchfile

import (
	"strconv"
	"unicode/utf8"
)

// maxQuote is how many bytes of offending input an error message quotes.
const maxQuote = 80

// Quote returns s quoted as Go source (strconv.Quote) for an error message,
// shortened by Shorten to at most 80 bytes of s: a bad line of a megabyte
// gives a message of one line.
func Quote(s string) string {
	return strconv.Quote(Shorten(s, maxQuote))
}

// Shorten returns s if it has at most max bytes, else its first bytes up to
// a rune boundary followed by "...", max bytes in all (max ≥ 4).
func Shorten(s string, max int) string {
	if len(s) <= max {
		return s
	}
	n := max - len("...")
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}
