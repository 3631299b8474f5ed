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
