package refcount_test

import (
	"fmt"

	"github.com/gohal/gohal/refcount"
)

type object struct {
	refs refcount.Count
	name string
}

func (o *object) get() { o.refs.Inc() }

func (o *object) put() {
	if o.refs.DecAndTest() {
		fmt.Println("release", o.name)
	}
}

// A reference count guards an object's lifetime: the goroutine that drops
// the last reference releases it. A use after release saturates the count
// instead of resurrecting the object, and is reported once.
func Example() {
	refcount.OnSaturate(func(event string) { fmt.Println("refcount:", event) })
	defer refcount.OnSaturate(nil)

	o := &object{name: "buffer"}
	o.refs.Set(1)
	o.get()
	o.put()
	o.put() // last reference: released

	o.get() // use after free: saturates, reported
	o.put() // saturated: never released again, not reported again
	fmt.Println(o.refs.Load() == refcount.SaturatedValue)
	// Output:
	// release buffer
	// refcount: increment on 0; use-after-free
	// true
}

// OnSaturate installs the hook a program uses to report misuse of a
// reference count: here to print it, in a server perhaps to log it with a
// stack trace. Each counter reports the first event that saturates it, once.
func ExampleOnSaturate() {
	prev := refcount.OnSaturate(func(event string) { fmt.Println("saturated:", event) })
	defer refcount.OnSaturate(prev)

	var a refcount.Count
	a.Set(1)
	fmt.Println(a.DecAndTest()) // the last reference: free the object
	fmt.Println(a.DecAndTest()) // one put too many: saturates, reported
	a.Inc()                     // saturated already: not reported again

	var b refcount.Count
	b.Set(2)
	b.Dec()
	b.Dec() // Dec is never for the last reference
	fmt.Println(a.Saturated(), b.Saturated(), b.Load() == refcount.SaturatedValue)
	// Output:
	// true
	// saturated: underflow; use-after-free
	// false
	// saturated: decrement hit 0; leaking memory
	// true true true
}
