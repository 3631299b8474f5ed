package benchfile

import (
	"math"
	"strconv"
	"strings"
)

// cIsSpace is isspace(3) in the C locale.
func cIsSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isHex(c byte) bool {
	return isDigit(c) || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F')
}

// hasPrefixFold reports whether s begins with the lower-case ASCII prefix,
// ignoring case.
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// strtod mimics glibc's strtod(3) in the C locale, which ministat uses to
// read its numbers: it skips leading white space and converts the longest
// prefix of s that forms a decimal or hexadecimal floating-point number,
// "inf", "infinity" or "nan" (optionally "nan(chars)"), any of them signed.
// It returns the value and the number of bytes consumed, 0 when no number
// could be read. Out-of-range values give ±Inf or a (signed) zero or
// subnormal, as strtod does; the caller cannot see ERANGE, nor can ministat.
func strtod(s string) (float64, int) {
	i := 0
	for i < len(s) && cIsSpace(s[i]) {
		i++
	}
	start := i
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	sign := 1.0
	if neg {
		sign = -1
	}
	rest := s[i:]
	switch {
	case hasPrefixFold(rest, "infinity"):
		return math.Inf(int(sign)), i + len("infinity")
	case hasPrefixFold(rest, "inf"):
		return math.Inf(int(sign)), i + len("inf")
	case hasPrefixFold(rest, "nan"):
		n := i + len("nan")
		if n < len(s) && s[n] == '(' {
			j := n + 1
			for j < len(s) && (isDigit(s[j]) || ('a' <= s[j]|0x20 && s[j]|0x20 <= 'z') || s[j] == '_') {
				j++
			}
			if j < len(s) && s[j] == ')' {
				n = j + 1
			}
		}
		return math.Copysign(math.NaN(), sign), n
	}
	// Hexadecimal: "0x" and at least one hex digit before or after the
	// point; otherwise only the "0" is a number.
	if len(rest) >= 2 && rest[0] == '0' && (rest[1] == 'x' || rest[1] == 'X') {
		if j, digits := scanMantissa(s, i+2, isHex); digits > 0 {
			mant, exp := s[i+2:j], "0"
			if k := scanExp(s, j, "pP"); k > j {
				exp, j = s[j+1:k], k
			}
			return parseLoose(s[start:i]+"0x"+mant+"p"+exp, neg), j
		}
		// Fall through: "0" followed by "x".
	}
	j, digits := scanMantissa(s, i, isDigit)
	if digits == 0 {
		return 0, 0
	}
	j = scanExp(s, j, "eE")
	return parseLoose(s[start:j], neg), j
}

// scanMantissa returns the end of the digits (as is accepts them) at s[j:],
// a point and more digits, and how many digits there are.
func scanMantissa(s string, j int, is func(byte) bool) (end, digits int) {
	point := false
	for ; j < len(s); j++ {
		switch {
		case is(s[j]):
			digits++
		case s[j] == '.' && !point:
			point = true
		default:
			return j, digits
		}
	}
	return j, digits
}

// scanExp returns the end of an exponent at s[j:] (a letter of marks, a
// sign, digits), or j when there is none.
func scanExp(s string, j int, marks string) int {
	if j >= len(s) || strings.IndexByte(marks, s[j]) < 0 {
		return j
	}
	k := j + 1
	if k < len(s) && (s[k] == '+' || s[k] == '-') {
		k++
	}
	if k >= len(s) || !isDigit(s[k]) {
		return j
	}
	for k < len(s) && isDigit(s[k]) {
		k++
	}
	return k
}

// parseLoose converts a syntactically valid number, keeping the infinity or
// zero that strconv returns along with ErrRange.
func parseLoose(num string, neg bool) float64 {
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			// The scanner above only passes valid syntax; this
			// would be a bug.
			panic("benchfile: strtod scanner accepted " + strconv.Quote(num) + ": " + err.Error())
		}
	}
	if v == 0 && neg {
		v = math.Copysign(0, -1)
	}
	return v
}
