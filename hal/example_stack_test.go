package hal_test

import (
	"fmt"
	"sync/atomic"

	"github.com/gohal/gohal/hal"
)

// indexStack is a lock-free LIFO of the indices 0..n-1 (a free list of
// slots in some array, say), the classic use of a 128-bit compare-and-swap.
// Its head is one Uint128: the top index (plus one, so that zero is the
// empty stack) in the low half and an ABA tag, bumped by every change, in
// the high half. Each index's successor lives in next.
//
// Without the tag the stack breaks: a pop reads top = A and below = B, is
// delayed while others pop A, pop B and push A back, and then its CAS of
// the head from A to B succeeds although B is no longer on the stack. With
// the tag the head is no longer what the delayed pop read, so its CAS
// fails and it retries.
type indexStack struct {
	head hal.Uint128     // lo: top index + 1 (0: empty); hi: the ABA tag
	next []atomic.Uint32 // next[i]: the index below i, plus one (0: none)
}

func newIndexStack(n int) *indexStack {
	return &indexStack{next: make([]atomic.Uint32, n)}
}

// push puts index i on top. The caller owns i: it is not on the stack.
func (s *indexStack) push(i uint32) {
	for {
		top, tag := s.head.Load()
		s.next[i].Store(uint32(top))
		if s.head.CompareAndSwap(top, tag, uint64(i)+1, tag+1) {
			return
		}
	}
}

// pop takes the top index off, and reports false if the stack is empty.
func (s *indexStack) pop() (i uint32, ok bool) {
	for {
		top, tag := s.head.Load()
		if top == 0 {
			return 0, false
		}
		// next[top-1] may be rewritten by the time the CAS runs (another
		// goroutine popped top and pushed it back on something else);
		// the tag then differs, so the CAS fails and this stale read is
		// never installed.
		below := s.next[top-1].Load()
		if s.head.CompareAndSwap(top, tag, uint64(below), tag+1) {
			return uint32(top - 1), true
		}
	}
}

func Example_lockFreeStack() {
	// A free list of 5 slots as a lock-free stack (indexStack above),
	// whose head is a hal.Uint128 holding {top, ABA tag}.
	s := newIndexStack(5)
	for i := range uint32(5) {
		s.push(i)
	}
	a, _ := s.pop()
	b, _ := s.pop()
	s.push(a)
	fmt.Println("popped", a, b, "and pushed", a, "back")
	var rest []uint32
	for {
		i, ok := s.pop()
		if !ok {
			break
		}
		rest = append(rest, i)
	}
	_, tag := s.head.Load()
	fmt.Println("then popped", rest, "until empty")
	fmt.Println("changes of the head:", tag)
	// Output:
	// popped 4 3 and pushed 4 back
	// then popped [4 2 1 0] until empty
	// changes of the head: 12
}
