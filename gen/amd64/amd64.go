// Package amd64 is gohal's amd64 backend, built on avo.
//
// Every body uses physical registers: avo's CMPXCHG forms do not declare
// their implicit AX operand, so a virtual register could be allocated to
// AX and clobber the comparand. LOCK has no builder in avo; it is emitted
// as a raw instruction, which prints on its own line, as the Go assembler
// accepts.
package amd64

import (
	"fmt"
	"strings"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/pass"
	"github.com/mmcloughlin/avo/printer"
	"github.com/mmcloughlin/avo/reg"

	"github.com/gohal/gohal/gen/backend"
	"github.com/gohal/gohal/gen/spec"
)

// Backend writes asm_amd64.s with avo.
type Backend struct {
	ctx *build.Context
}

// New returns a fresh amd64 backend.
func New() *Backend { return &Backend{ctx: build.NewContext()} }

// Arch implements backend.Backend.
func (*Backend) Arch() string { return "amd64" }

type body func(c *build.Context, prefix string)

var bodies = backend.Bodies[body]{
	"pause/pause":         func(c *build.Context, _ string) { c.PAUSE(); c.RET() },
	"cas32/lock":          casBody(32),
	"cas64/lock":          casBody(64),
	"casuintptr/lock":     casBody(64),
	"fetchadd32/lock":     xaddBody(32),
	"fetchadd64/lock":     xaddBody(64),
	"swap32/lock":         xchgBody(32),
	"swap64/lock":         xchgBody(64),
	"loadacquire32/mov":   loadBody(32),
	"loadacquire64/mov":   loadBody(64),
	"storerelease32/mov":  storeBody(32),
	"storerelease64/mov":  storeBody(64),
	"fence/lockor":        fenceLockOr,
	"fence/mfence":        func(c *build.Context, _ string) { c.MFENCE(); c.RET() },
	"cas128/cmpxchg16b":   cas128,
	"load128/vmovdqa":     load128VMOVDQA,
	"load128/cmpxchg16b":  load128CMPXCHG16B,
	"store128/vmovdqa":    store128VMOVDQA,
	"store128/cmpxchg16b": store128CMPXCHG16B,
	"cycles/rdtscp":       cyclesRDTSCP,
	"cycles/lfence_rdtsc": cyclesLFENCE,
	"spinlock32/pause":    spinLock32,
	"cpu/rdpid":           cpuRDPID,
	"cpu/rdtscp":          cpuRDTSCP,
	"cpu/lsl":             cpuLSL,
	"cpu/syscall":         cpuSyscall,
	"fetchor32/cmpxchg":   bitsLoop(32, false),
	"fetchor64/cmpxchg":   bitsLoop(64, false),
	"fetchand32/cmpxchg":  bitsLoop(32, true),
	"fetchand64/cmpxchg":  bitsLoop(64, true),
	// uintptr is 64 bits on amd64.
	"fetchadduintptr/lock":    xaddBody(64),
	"swapuintptr/lock":        xchgBody(64),
	"loadacquireuintptr/mov":  loadBody(64),
	"storereleaseuintptr/mov": storeBody(64),
}

// Implements implements backend.Backend: the keys of bodies.
func (*Backend) Implements() []string { return bodies.Implements() }

// Text implements backend.Backend.
func (b *Backend) Text(name string, op *spec.Op, doc []string) {
	c := b.ctx
	c.Function(name)
	c.Attributes(attr.NOSPLIT)
	c.SignatureExpr(op.Signature())
	if op.HasPointer() {
		c.Pragma("noescape")
	}
	if len(doc) > 0 {
		c.Comment(doc...)
	}
}

// Select implements backend.Backend. With two variants it is one CMPB of
// the flag in memory against 0; with more, one MOVBLZX into R11 and a
// compare per label.
func (b *Backend) Select(sel string, labels []string) {
	c := b.ctx
	flag := operand.NewDataAddr(operand.Symbol{Name: "·" + sel}, 0)
	if len(labels) == 1 {
		c.CMPB(flag, operand.U8(0))
		c.JNE(operand.LabelRef(labels[0]))
		return
	}
	c.MOVBLZX(flag, reg.R11L)
	for i, l := range labels {
		c.CMPL(reg.R11L, operand.U32(i+1))
		c.JEQ(operand.LabelRef(l))
	}
}

// TailJump implements backend.Backend.
func (b *Backend) TailJump(name string) { tailJump(b.ctx, name) }

// ResolveUint128 implements backend.Backend: SI = the Uint128's cell
// pointer and R8 = its key (plain loads, never stores: hal writes both
// with sync/atomic); unless SI XOR R8 is addr (which also rules out a nil
// cell: a zero value's key is 0), go to moved; else the cell (its value is
// at offset 0) goes back into the addr argument. Both loads are of the
// Uint128's own line, which accesses only read: the cell's line, which a
// contended Store or CAS pulls between cores, is touched only by the op.
// Under x86-TSO loads are not reordered with loads, and the cell's
// contents were published by the locked CMPXCHG that stored the pointer,
// before the key was stored.
func (b *Backend) ResolveUint128(entry, moved string) error {
	c := b.ctx
	c.Load(c.Param("addr"), reg.RDI)
	c.MOVQ(operand.Mem{Base: reg.RDI}, reg.RSI)
	c.MOVQ(operand.Mem{Base: reg.RDI, Disp: spec.Uint128KeyOffset}, reg.R8)
	c.XORQ(reg.RSI, reg.R8)
	c.CMPQ(reg.R8, reg.RDI)
	c.JNE(operand.LabelRef("moved"))
	c.Store(reg.RSI, c.Param("addr"))
	tailJump(c, entry)
	c.Label("moved")
	tailJump(c, moved)
	return nil
}

// Label implements backend.Backend.
func (b *Backend) Label(name string) { b.ctx.Label(name) }

// Comment implements backend.Backend.
func (b *Backend) Comment(lines ...string) { b.ctx.Comment(lines...) }

// Variant implements backend.Backend.
func (b *Backend) Variant(op *spec.Op, v spec.Variant, prefix string) error {
	f, err := bodies.Lookup("amd64", op, v)
	if err != nil {
		return err
	}
	f(b.ctx, prefix)
	return nil
}

// Context returns the avo context the backend writes into, for a
// generator outside the op spec (gen/rwread) that builds its own functions
// and prints them with Finish, Lock and TailJump.
func (b *Backend) Context() *build.Context { return b.ctx }

// Lock emits the LOCK prefix as its own instruction line (avo has no
// builder for it); the locked instruction follows.
func (b *Backend) Lock() { lock(b.ctx) }

// Finish implements backend.Backend: it runs avo's compile passes, prints
// the file and starts a fresh avo context for the next one.
func (b *Backend) Finish(header string, tags []string) ([]byte, error) {
	ctx := b.ctx
	b.ctx = build.NewContext()
	// avo takes the old "+build" syntax, where a comma is AND.
	ctx.ConstraintExpr(strings.Join(tags, ","))
	f, err := ctx.Result()
	if err != nil {
		return nil, err
	}
	if err := pass.Compile.Execute(f); err != nil {
		return nil, err
	}
	cfg := printer.Config{Name: strings.TrimSuffix(strings.TrimPrefix(header, "Code generated by "), ". DO NOT EDIT.")}
	out, err := printer.NewGoAsm(cfg).Print(f)
	if err != nil {
		return nil, err
	}
	if got := strings.SplitN(string(out), "\n", 2)[0]; got != "// "+header {
		return nil, fmt.Errorf("avo printed header %q, want %q", got, "// "+header)
	}
	return out, nil
}

// lock emits the LOCK prefix as its own instruction line.
func lock(c *build.Context) { c.Instruction(&ir.Instruction{Opcode: "LOCK"}) }

func mem(r reg.Register) operand.Mem { return operand.Mem{Base: r} }

// casBody: LOCK CMPXCHG{L,Q} new, (addr) with old in AX; ZF tells whether
// it swapped. A locked instruction is a full barrier on x86, so the CAS is
// sequentially consistent.
func casBody(bits int) body {
	return func(c *build.Context, _ string) {
		c.Load(c.Param("addr"), reg.RCX)
		if bits == 32 {
			c.Load(c.Param("old"), reg.EAX)
			c.Load(c.Param("new"), reg.EDX)
			lock(c)
			c.CMPXCHGL(reg.EDX, mem(reg.RCX))
		} else {
			c.Load(c.Param("old"), reg.RAX)
			c.Load(c.Param("new"), reg.RDX)
			lock(c)
			c.CMPXCHGQ(reg.RDX, mem(reg.RCX))
		}
		c.SETEQ(reg.AL)
		c.Store(reg.AL, c.Return("swapped"))
		c.RET()
	}
}

// xaddBody: LOCK XADD leaves the old value in the source register.
func xaddBody(bits int) body {
	return func(c *build.Context, _ string) {
		c.Load(c.Param("addr"), reg.RCX)
		if bits == 32 {
			c.Load(c.Param("delta"), reg.EAX)
			lock(c)
			c.XADDL(reg.EAX, mem(reg.RCX))
			c.Store(reg.EAX, c.Return("old"))
		} else {
			c.Load(c.Param("delta"), reg.RAX)
			lock(c)
			c.XADDQ(reg.RAX, mem(reg.RCX))
			c.Store(reg.RAX, c.Return("old"))
		}
		c.RET()
	}
}

// xchgBody: XCHG with a memory operand is locked without a prefix.
func xchgBody(bits int) body {
	return func(c *build.Context, _ string) {
		c.Load(c.Param("addr"), reg.RCX)
		if bits == 32 {
			c.Load(c.Param("new"), reg.EAX)
			c.Comment("XCHG with memory is implicitly locked.")
			c.XCHGL(reg.EAX, mem(reg.RCX))
			c.Store(reg.EAX, c.Return("old"))
		} else {
			c.Load(c.Param("new"), reg.RAX)
			c.Comment("XCHG with memory is implicitly locked.")
			c.XCHGQ(reg.RAX, mem(reg.RCX))
			c.Store(reg.RAX, c.Return("old"))
		}
		c.RET()
	}
}

// loadBody: under x86-TSO loads are not reordered with later loads or
// stores, so a plain aligned MOV is an atomic acquire load.
func loadBody(bits int) body {
	return func(c *build.Context, _ string) {
		c.Load(c.Param("addr"), reg.RCX)
		c.Comment("x86-TSO: a load is not reordered with later loads or stores,",
			"so a plain (aligned, hence atomic) MOV is an acquire load.")
		if bits == 32 {
			c.MOVL(mem(reg.RCX), reg.EAX)
			c.Store(reg.EAX, c.ReturnIndex(0))
		} else {
			c.MOVQ(mem(reg.RCX), reg.RAX)
			c.Store(reg.RAX, c.ReturnIndex(0))
		}
		c.RET()
	}
}

// storeBody: under x86-TSO stores are not reordered with earlier loads or
// stores, so a plain aligned MOV is an atomic release store. (It is not a
// sequentially consistent store: a later load may pass it, which release
// allows.)
func storeBody(bits int) body {
	return func(c *build.Context, _ string) {
		c.Load(c.Param("addr"), reg.RCX)
		c.Comment("x86-TSO: a store is not reordered with earlier loads or stores,",
			"so a plain (aligned, hence atomic) MOV is a release store.")
		if bits == 32 {
			c.Load(c.Param("val"), reg.EAX)
			c.MOVL(reg.EAX, mem(reg.RCX))
		} else {
			c.Load(c.Param("val"), reg.RAX)
			c.MOVQ(reg.RAX, mem(reg.RCX))
		}
		c.RET()
	}
}

// fenceLockOr: a locked read-modify-write is a full barrier. ORing 0 into
// the word at the top of the stack (the return address: private to this
// goroutine, in cache, and left unchanged) is the cheapest such RMW.
func fenceLockOr(c *build.Context, _ string) {
	c.Comment("A locked RMW is a full barrier; OR $0 into the return address",
		"at the top of the stack changes nothing and touches a line in cache.")
	lock(c)
	c.ORQ(operand.U8(0), operand.NewStackAddr(0))
	c.RET()
}

// cas128: LOCK CMPXCHG16B compares DX:AX with the 16 bytes at (DI) and
// stores CX:BX if equal; otherwise it loads the value found into DX:AX. In
// both cases DX:AX ends up holding the value found.
func cas128(c *build.Context, p string) {
	c.Load(c.Param("addr"), reg.RDI)
	alignCheck(c, p)
	c.Load(c.Param("oldLo"), reg.RAX)
	c.Load(c.Param("oldHi"), reg.RDX)
	c.Load(c.Param("newLo"), reg.RBX)
	c.Load(c.Param("newHi"), reg.RCX)
	lock(c)
	c.CMPXCHG16B(mem(reg.RDI))
	c.SETEQ(reg.R8B)
	c.Comment("DX:AX holds the value found, swapped or not.")
	c.Store(reg.RAX, c.Return("lo"))
	c.Store(reg.RDX, c.Return("hi"))
	c.Store(reg.R8B, c.Return("swapped"))
	c.RET()
	misaligned(c, p)
}

// alignCheck branches to the body's misaligned label when the word in DI
// is not 16-byte aligned: CMPXCHG16B would fault (#GP) and VMOVDQA too.
func alignCheck(c *build.Context, p string) {
	c.TESTQ(operand.U32(15), reg.RDI)
	c.JNE(operand.LabelRef(p + "misaligned"))
}

// misaligned is the body's misaligned label: a tail jump, with the
// function's own argument frame, to the Go function that panics with an
// error naming the address (spec.Misaligned128, in hal and hal/direct).
func misaligned(c *build.Context, p string) {
	c.Label(p + "misaligned")
	tailJump(c, spec.Misaligned128)
}

// tailJump jumps to the Go function ·name of the same package (its ABI0
// wrapper, which reads the arguments this function was called with).
// avo's JMP builder takes only a label as a target (its flow-graph pass
// rejects anything else), so the jump is a raw instruction, as LOCK is;
// it ends the body, so no pass needs to know where it goes.
func tailJump(c *build.Context, name string) {
	c.Instruction(&ir.Instruction{Opcode: "JMP", Operands: []operand.Op{operand.NewDataAddr(operand.Symbol{Name: "·" + name}, 0)}})
}

// results128 stores X0's 16 bytes into the results lo and hi, which the
// frame places next to each other, with one unaligned 16-byte store.
func results128(c *build.Context) {
	lo, err := c.Return("lo").Resolve()
	if err != nil {
		panic(err) // a spec whose 128-bit op has no result lo
	}
	c.Comment("lo and hi are adjacent in the frame: one 16-byte store.")
	c.VMOVDQU(reg.X0, lo.Addr)
}

// load128VMOVDQA: Intel and AMD guarantee that a 16-byte-aligned VMOVDQA
// is single-copy atomic on CPUs with AVX (spec: FeatureAVXAtomic). It
// writes nothing. Under x86-TSO a load is not reordered with later loads
// or stores, and every earlier store to the word is either a locked
// instruction or a fenced store (store128), so it is a sequentially
// consistent load.
func load128VMOVDQA(c *build.Context, p string) {
	c.Load(c.Param("addr"), reg.RDI)
	alignCheck(c, p)
	c.VMOVDQA(mem(reg.RDI), reg.X0)
	results128(c)
	c.RET()
	misaligned(c, p)
}

// load128CMPXCHG16B: compare the word with 0 and, if equal, store 0: the
// word does not change, and DX:AX receives its value either way. It needs
// the line exclusively, as any locked write does.
func load128CMPXCHG16B(c *build.Context, p string) {
	c.Load(c.Param("addr"), reg.RDI)
	alignCheck(c, p)
	c.XORL(reg.EAX, reg.EAX)
	c.XORL(reg.EDX, reg.EDX)
	c.XORL(reg.EBX, reg.EBX)
	c.XORL(reg.ECX, reg.ECX)
	lock(c)
	c.CMPXCHG16B(mem(reg.RDI))
	c.Store(reg.RAX, c.Return("lo"))
	c.Store(reg.RDX, c.Return("hi"))
	c.RET()
	misaligned(c, p)
}

// store128VMOVDQA: the 16-byte store, then a locked no-op (LOCK ORQ $0 on
// the return address at the top of the stack, as the fence op's lockor):
// a locked instruction is not reordered with earlier stores or later
// loads, so no later load moves before the store: sequentially consistent,
// as MFENCE would make it, at a locked op's cost.
func store128VMOVDQA(c *build.Context, p string) {
	c.Load(c.Param("addr"), reg.RDI)
	alignCheck(c, p)
	lo, err := c.Param("lo").Resolve()
	if err != nil {
		panic(err) // a spec whose 128-bit store has no parameter lo
	}
	c.Comment("lo and hi are adjacent in the frame: one 16-byte load.")
	c.VMOVDQU(lo.Addr, reg.X0)
	c.VMOVDQA(reg.X0, mem(reg.RDI))
	c.Comment("The full fence that makes the store sequentially consistent.")
	lock(c)
	c.ORQ(operand.U8(0), operand.NewStackAddr(0))
	c.RET()
	misaligned(c, p)
}

// store128CMPXCHG16B: a CMPXCHG16B loop. The first guess is 0; a failed
// CMPXCHG16B leaves the value found in DX:AX, the next guess, so the loop
// ends on the first try after the word last changed.
func store128CMPXCHG16B(c *build.Context, p string) {
	c.Load(c.Param("addr"), reg.RDI)
	alignCheck(c, p)
	c.Load(c.Param("lo"), reg.RBX)
	c.Load(c.Param("hi"), reg.RCX)
	c.XORL(reg.EAX, reg.EAX)
	c.XORL(reg.EDX, reg.EDX)
	c.Label(p + "loop")
	lock(c)
	c.CMPXCHG16B(mem(reg.RDI))
	c.JNE(operand.LabelRef(p + "loop"))
	c.RET()
	misaligned(c, p)
}

// cyclesRDTSCP: RDTSCP waits until all earlier instructions have executed
// before it reads the TSC into DX:AX (and IA32_TSC_AUX into CX).
func cyclesRDTSCP(c *build.Context, _ string) {
	c.RDTSCP()
	c.SHLQ(operand.U8(32), reg.RDX)
	c.ORQ(reg.RDX, reg.RAX)
	c.Store(reg.RAX, c.ReturnIndex(0))
	c.RET()
}

// cyclesLFENCE: LFENCE does not let RDTSC execute until earlier
// instructions have completed locally.
func cyclesLFENCE(c *build.Context, _ string) {
	c.LFENCE()
	c.RDTSC()
	c.SHLQ(operand.U8(32), reg.RDX)
	c.ORQ(reg.RDX, reg.RAX)
	c.Store(reg.RAX, c.ReturnIndex(0))
	c.RET()
}

// spinLock32: the test-and-test-and-set loop in one function. A plain MOVL
// reads the word (x86-TSO: an acquire load, and it keeps the line shared
// among waiters); while it is held the loop spends one unit of the budget
// in DX on a PAUSE and reads again; when it reads 0 (AX is then the
// comparand 0) LOCK CMPXCHGL tries 0→1, a full barrier like every locked
// instruction. A CMPXCHG that loses (ZF clear) found the word held, so it
// goes where a load that found it held goes.
func spinLock32(c *build.Context, p string) {
	loop, held, try, fail := p+"loop", p+"held", p+"try", p+"fail"
	c.Load(c.Param("addr"), reg.RCX)
	c.Load(c.Param("spins"), reg.EDX)
	c.MOVL(operand.U32(1), reg.EBX)
	c.Label(loop)
	c.MOVL(mem(reg.RCX), reg.EAX)
	c.TESTL(reg.EAX, reg.EAX)
	c.JEQ(operand.LabelRef(try))
	c.Label(held)
	c.TESTL(reg.EDX, reg.EDX)
	c.JEQ(operand.LabelRef(fail))
	c.DECL(reg.EDX)
	c.PAUSE()
	c.JMP(operand.LabelRef(loop))
	c.Label(try)
	c.Comment("AX = 0, the comparand; ZF tells whether the CAS took the lock.")
	lock(c)
	c.CMPXCHGL(reg.EBX, mem(reg.RCX))
	c.JNE(operand.LabelRef(held))
	c.Store(reg.BL, c.Return("acquired"))
	c.RET()
	c.Label(fail)
	c.Comment("DX = 0: the budget is spent.")
	c.Store(reg.DL, c.Return("acquired"))
	c.RET()
}

// cpuNodeMask keeps the CPU of Linux's per-CPU value node<<12 | cpu.
const cpuNodeMask = 0xfff

// cpuRDPID: RDPID reads IA32_TSC_AUX, which Linux sets to node<<12 | cpu
// on every CPU when it has RDTSCP or RDPID. avo has no RDPID builder; the
// Go assembler spells it RDPID AX.
func cpuRDPID(c *build.Context, _ string) {
	c.Instruction(&ir.Instruction{Opcode: "RDPID", Operands: []operand.Op{reg.RAX}})
	c.ANDQ(operand.U32(cpuNodeMask), reg.RAX)
	c.Store(reg.RAX, c.ReturnIndex(0))
	c.RET()
}

// cpuRDTSCP: RDTSCP returns IA32_TSC_AUX in ECX (and the TSC in EDX:EAX,
// unused); it waits for earlier instructions to execute, which RDPID does
// not.
func cpuRDTSCP(c *build.Context, _ string) {
	c.RDTSCP()
	c.ANDQ(operand.U32(cpuNodeMask), reg.RCX)
	c.Store(reg.RCX, c.ReturnIndex(0))
	c.RET()
}

// cpuLSL: LSL loads the segment limit of selector 0x7b (GDT entry 15, RPL
// 3), which x86-64 Linux sets to node<<12 | cpu on every CPU for its
// vDSO's getcpu, the path the vDSO takes without RDPID. If the selector is
// not valid (ZF clear: not Linux's GDT after all), it returns 0, a CPU
// number that always exists. avo has no LSL builder.
func cpuLSL(c *build.Context, p string) {
	bad := p + "bad"
	c.MOVL(operand.U32(0x7b), reg.EAX)
	c.Instruction(&ir.Instruction{Opcode: "LSLL", Operands: []operand.Op{reg.EAX, reg.EAX}})
	c.JNE(operand.LabelRef(bad))
	c.ANDQ(operand.U32(cpuNodeMask), reg.RAX)
	c.Store(reg.RAX, c.ReturnIndex(0))
	c.RET()
	c.Label(bad)
	c.XORL(reg.EAX, reg.EAX)
	c.Store(reg.RAX, c.ReturnIndex(0))
	c.RET()
}

// cpuSyscall: getcpu(2), x86-64 Linux system call 309, writing the CPU
// number (an unsigned int) into the low half of the result slot, zeroed
// first; the kernel clobbers CX and R11. On an error (which getcpu with a valid
// pointer does not return) the result is 0.
func cpuSyscall(c *build.Context, p string) {
	bad := p + "bad"
	ret, err := c.ReturnIndex(0).Resolve()
	if err != nil {
		panic(err) // an int result always resolves
	}
	c.MOVQ(operand.U32(0), ret.Addr) // getcpu writes the low 4 bytes only
	c.LEAQ(ret.Addr, reg.RDI)
	c.XORL(reg.ESI, reg.ESI)
	c.XORL(reg.EDX, reg.EDX)
	c.MOVL(operand.U32(309), reg.EAX)
	c.SYSCALL()
	c.TESTQ(reg.RAX, reg.RAX)
	c.JNE(operand.LabelRef(bad))
	c.RET()
	c.Label(bad)
	c.MOVQ(operand.U32(0), ret.Addr)
	c.RET()
}

// bitsLoop: x86 has no fetch-or or fetch-and, so the op is a CAS loop, the
// code the compiler emits for atomic.OrUint64/AndUint64 with the result
// used: load the old value into AX, compute old op mask into DX, LOCK
// CMPXCHG DX into the word if it still holds AX; a failed CMPXCHG loads
// the value found into AX, and the loop retries with it. The locked
// CMPXCHG is a full barrier, so the op is sequentially consistent.
func bitsLoop(bits int, and bool) body {
	return func(c *build.Context, p string) {
		loop := p + "loop"
		c.Load(c.Param("addr"), reg.RCX)
		if bits == 32 {
			c.Load(c.Param("mask"), reg.EBX)
			c.MOVL(mem(reg.RCX), reg.EAX)
			c.Label(loop)
			c.MOVL(reg.EBX, reg.EDX)
			if and {
				c.ANDL(reg.EAX, reg.EDX)
			} else {
				c.ORL(reg.EAX, reg.EDX)
			}
			lock(c)
			c.CMPXCHGL(reg.EDX, mem(reg.RCX))
			c.JNE(operand.LabelRef(loop))
			c.Store(reg.EAX, c.Return("old"))
		} else {
			c.Load(c.Param("mask"), reg.RBX)
			c.MOVQ(mem(reg.RCX), reg.RAX)
			c.Label(loop)
			c.MOVQ(reg.RBX, reg.RDX)
			if and {
				c.ANDQ(reg.RAX, reg.RDX)
			} else {
				c.ORQ(reg.RAX, reg.RDX)
			}
			lock(c)
			c.CMPXCHGQ(reg.RDX, mem(reg.RCX))
			c.JNE(operand.LabelRef(loop))
			c.Store(reg.RAX, c.Return("old"))
		}
		c.RET()
	}
}
