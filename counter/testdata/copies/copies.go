// Package copies copies each counter by value, for TestVetReportsCopies:
// go vet's copylocks check must report every one of these lines.
package copies

import "github.com/gohal/gohal/counter"

func CASLoop(c *counter.CASLoop) counter.CASLoop    { return *c }
func FetchAdd(c *counter.FetchAdd) counter.FetchAdd { return *c }
func Striped(c *counter.Striped) counter.Striped    { return *c }
func Adder(c *counter.Adder) counter.Adder          { return *c }
