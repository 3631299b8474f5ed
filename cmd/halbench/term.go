package main

import (
	"io"
	"os"
)

// isTerminal reports whether w is a terminal: halbench prints progress
// only there, so that redirected or piped output holds results alone.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && isTerminalFd(int(f.Fd()))
}
