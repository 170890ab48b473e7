//! A rule's circuit compiled to AVX-512 machine code, its values in registers.
//!
//! The circuit's interpreter ([`Circuit::eval_rows`]) keeps every node's value in memory: a
//! node is two loads, one `vpternlogq` and a 64-byte store, and the stores bound it (the
//! twenty-eighth session's profile of pondpuffer-spaceship: four of the five hottest
//! instructions). Compiled, the values live in the 32 vector registers, a node is one
//! `vpternlogq` that reads its cell straight from the batch, and a value is stored only where
//! the registers run out. The code is mapped writable, filled, then made executable and never
//! writable again.
//!
//! Only x86-64 Linux with AVX-512 compiles circuits; elsewhere the interpreter runs them.

use std::fmt;

use crate::rule::Circuit;

/// A circuit compiled for batches whose ten arrays (nine inputs in the circuit's index-bit
/// order, then the results) lie `stride` words apart.
pub struct CompiledCircuit {
    code: Code,
    /// 64-byte slots the code spills values to.
    spills: usize,
}

impl fmt::Debug for CompiledCircuit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CompiledCircuit")
            .field("bytes", &self.code.len)
            .field("spills", &self.spills)
            .finish()
    }
}

impl CompiledCircuit {
    /// `circuit` compiled for batches of arrays `stride` words apart; `None` where this CPU or
    /// system cannot run the code (the interpreter runs the circuit there).
    pub fn new(circuit: &Circuit, stride: usize) -> Option<Self> {
        #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
        {
            if !std::arch::is_x86_feature_detected!("avx512f") {
                return None;
            }
            let (bytes, spills) = compile::program(circuit, stride)?;
            let code = Code::new(&bytes)?;
            Some(CompiledCircuit { code, spills })
        }
        #[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
        {
            let _ = (circuit, stride);
            None
        }
    }

    /// Words of scratch [`CompiledCircuit::run`] needs for its spilled values.
    pub fn scratch_words(&self) -> usize {
        self.spills * 8
    }

    /// Runs the circuit on `vectors` runs of eight rows from `base`: input b of row k is
    /// `base[b * stride + k]`, its result goes to `base[9 * stride + k]`.
    ///
    /// # Safety
    /// `base` must hold ten arrays of `stride` words (the stride the circuit was compiled
    /// for), each at least `vectors * 8` words long, and `scratch` at least
    /// [`CompiledCircuit::scratch_words`] words.
    pub unsafe fn run(&self, base: *mut u64, vectors: usize, scratch: *mut u64) {
        if vectors == 0 {
            return;
        }
        #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
        {
            type Entry = unsafe extern "sysv64" fn(*mut u64, usize, *mut u64);
            // SAFETY: the code is a complete function of this signature (`compile::program`),
            // mapped executable for the life of `self`; the caller vouches for the pointers.
            unsafe {
                let entry: Entry = std::mem::transmute::<*const u8, Entry>(self.code.ptr);
                entry(base, vectors, scratch);
            }
        }
        #[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
        let _ = (base, scratch);
    }
}

/// Machine code in pages of its own, executable and not writable.
struct Code {
    ptr: *const u8,
    len: usize,
}

// SAFETY: the pages are never written after `Code::new`, and unmapped only by the one owner.
unsafe impl Send for Code {}
// SAFETY: as above: shared, they are only executed.
unsafe impl Sync for Code {}

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
impl Code {
    fn new(bytes: &[u8]) -> Option<Code> {
        let len = bytes.len().max(1);
        // SAFETY: a fresh private anonymous mapping, written within its length, then made
        // read-only and executable; a failed call leaves nothing mapped or is undone.
        unsafe {
            let ptr = libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            if ptr == libc::MAP_FAILED {
                return None;
            }
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), ptr.cast::<u8>(), bytes.len());
            if libc::mprotect(ptr, len, libc::PROT_READ | libc::PROT_EXEC) != 0 {
                libc::munmap(ptr, len);
                return None;
            }
            Some(Code {
                ptr: ptr.cast::<u8>().cast_const(),
                len,
            })
        }
    }
}

impl Drop for Code {
    fn drop(&mut self) {
        #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
        // SAFETY: the mapping `Code::new` made, unmapped once.
        unsafe {
            libc::munmap(self.ptr.cast_mut().cast(), self.len);
        }
    }
}

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
mod compile {
    use super::encode::{Asm, Base};
    use crate::rule::Circuit;

    /// Vector registers the values may take.
    const REGS: usize = 32;

    /// An operand of a node: a constant, or the value of an earlier node.
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum Operand {
        Const(bool),
        Node(usize),
    }

    struct Node {
        cell: u8,
        lo: Operand,
        hi: Operand,
    }

    /// The code of `circuit` for arrays `stride` words apart, and its spill slots. The function
    /// takes the batch (rdi), the runs of eight rows (rsi, at least one) and the spill area
    /// (rdx); each run reads its cells from the batch as memory operands and keeps the nodes
    /// in registers.
    pub(super) fn program(circuit: &Circuit, stride: usize) -> Option<(Vec<u8>, usize)> {
        let mut nodes = Vec::new();
        let operand = |v: u16| match v {
            0 => Operand::Const(false),
            1 => Operand::Const(true),
            v => Operand::Node(v as usize - 2),
        };
        let root = circuit.lines(|_, cell, lo, hi| {
            nodes.push(Node {
                cell,
                lo: operand(lo),
                hi: operand(hi),
            })
        });
        let root = operand(root);
        // In bytes, the results' array (the ninth stride) within a 32-bit displacement.
        let stride = i32::try_from(stride.checked_mul(8)?).ok()?;
        stride.checked_mul(9)?;
        let mut a = Alloc::new(&nodes, root);
        a.body(&nodes, root, stride);
        a.asm.loop_back_to(0);
        Some((a.asm.bytes, a.spill_slots))
    }

    /// A linear-scan allocation of the values to registers, spilling the value read furthest
    /// ahead when none is free, and the code it makes.
    struct Alloc {
        /// For each node, the positions of the nodes that read it (the root's read at the end).
        uses: Vec<Vec<usize>>,
        reg_of: Vec<Option<u8>>,
        slot_of: Vec<Option<usize>>,
        holder: [Option<usize>; REGS],
        spill_slots: usize,
        asm: Asm,
    }

    impl Alloc {
        fn new(nodes: &[Node], root: Operand) -> Alloc {
            let mut uses = vec![Vec::new(); nodes.len()];
            for (i, n) in nodes.iter().enumerate() {
                for op in [n.lo, n.hi] {
                    if let Operand::Node(v) = op {
                        uses[v].push(i);
                    }
                }
            }
            if let Operand::Node(v) = root {
                uses[v].push(nodes.len());
            }
            Alloc {
                uses,
                reg_of: vec![None; nodes.len()],
                slot_of: vec![None; nodes.len()],
                holder: [None; REGS],
                spill_slots: 0,
                asm: Asm::default(),
            }
        }

        /// The next read of value `v` at or after position `at` (none: `usize::MAX`).
        fn next_use(&self, v: usize, at: usize) -> usize {
            self.uses[v]
                .iter()
                .copied()
                .find(|&u| u >= at)
                .unwrap_or(usize::MAX)
        }

        fn dies_at(&self, op: Operand, at: usize) -> bool {
            matches!(op, Operand::Node(v) if self.next_use(v, at + 1) == usize::MAX)
        }

        fn reg(&self, op: Operand) -> Option<u8> {
            match op {
                Operand::Node(v) => self.reg_of[v],
                Operand::Const(_) => None,
            }
        }

        /// A free register, made by spilling where none is; `keep` are not to be taken.
        fn free_reg(&mut self, at: usize, keep: &[u8]) -> u8 {
            if let Some(r) = (0..REGS).find(|&r| self.holder[r].is_none()) {
                return r as u8;
            }
            let (r, v) = (0..REGS)
                .filter(|r| !keep.contains(&(*r as u8)))
                .filter_map(|r| self.holder[r].map(|v| (r, v)))
                .max_by_key(|&(_, v)| self.next_use(v, at))
                .expect("a node keeps at most two registers");
            // A value is computed once, so one store keeps it for every reload.
            if self.slot_of[v].is_none() {
                self.slot_of[v] = Some(self.spill_slots);
                self.asm
                    .store(Base::Rdx, self.spill_slots as i32 * 64, r as u8);
                self.spill_slots += 1;
            }
            self.reg_of[v] = None;
            self.holder[r] = None;
            r as u8
        }

        /// Value `v` in a register, reloaded where it was spilled.
        fn in_reg(&mut self, v: usize, at: usize, keep: &[u8]) -> u8 {
            if let Some(r) = self.reg_of[v] {
                return r;
            }
            let slot = self.slot_of[v].expect("a value not in a register was spilled");
            let r = self.free_reg(at, keep);
            self.asm.load(r, Base::Rdx, slot as i32 * 64);
            self.reg_of[v] = Some(r);
            self.holder[r as usize] = Some(v);
            r
        }

        fn body(&mut self, nodes: &[Node], root: Operand, stride: i32) {
            for (i, n) in nodes.iter().enumerate() {
                let cell = n.cell as i32 * stride;
                let mut keep = Vec::new();
                for op in [n.lo, n.hi] {
                    if let Operand::Node(v) = op {
                        let r = self.in_reg(v, i, &keep);
                        keep.push(r);
                    }
                }
                // `vpternlogq a, b, c`: bit (a << 2 | b << 1 | c) of the immediate is the
                // result where the destination holds a, the second operand b and the third
                // c. The cell is the third, read from the batch; the destination is an
                // operand read here for the last time, or a fresh register.
                let (lo, hi) = (self.reg(n.lo), self.reg(n.hi));
                let (lo_dies, hi_dies) = (self.dies_at(n.lo, i), self.dies_at(n.hi, i));
                let (dst, in_a, b, in_b) = match (lo, hi) {
                    (Some(l), Some(h)) if lo_dies => (l, Some(n.lo), h, Some(n.hi)),
                    (Some(l), Some(h)) if hi_dies => (h, Some(n.hi), l, Some(n.lo)),
                    (Some(l), Some(h)) => {
                        // Neither dies: the cell goes to a fresh register, which then picks.
                        let d = self.free_reg(i, &[l, h]);
                        self.asm.load(d, Base::Rdi, cell);
                        self.asm
                            .ternlog(d, l, h, truth(|a, b, c| if a { c } else { b }));
                        self.finish(i, d);
                        continue;
                    }
                    (Some(r), None) | (None, Some(r)) => {
                        let op = if lo == Some(r) { n.lo } else { n.hi };
                        if self.dies_at(op, i) {
                            (r, Some(op), r, Some(op))
                        } else {
                            (self.free_reg(i, &[r]), None, r, Some(op))
                        }
                    }
                    (None, None) => {
                        let d = self.free_reg(i, &[]);
                        (d, None, d, None)
                    }
                };
                let value = |op: Operand, a: bool, b: bool| match op {
                    Operand::Const(k) => k,
                    _ if in_a == Some(op) => a,
                    _ => {
                        debug_assert!(in_b == Some(op), "every operand is in a slot");
                        b
                    }
                };
                let imm = truth(|a, b, c| {
                    if c {
                        value(n.hi, a, b)
                    } else {
                        value(n.lo, a, b)
                    }
                });
                self.asm.ternlog_mem(dst, b, Base::Rdi, cell, imm);
                self.finish(i, dst);
            }
            let r = match root {
                Operand::Node(v) => self.in_reg(v, nodes.len(), &[]),
                Operand::Const(k) => {
                    let r = self.free_reg(nodes.len(), &[]);
                    self.asm.ternlog(r, r, r, if k { 0xff } else { 0 });
                    r
                }
            };
            self.asm.store(Base::Rdi, 9 * stride, r);
        }

        /// Node `i`'s value is now in `dst`; the values read for the last time let go.
        fn finish(&mut self, i: usize, dst: u8) {
            if let Some(old) = self.holder[dst as usize] {
                self.reg_of[old] = None;
            }
            self.holder[dst as usize] = None;
            for r in 0..REGS {
                if let Some(v) = self.holder[r]
                    && self.next_use(v, i + 1) == usize::MAX
                {
                    self.holder[r] = None;
                    self.reg_of[v] = None;
                }
            }
            self.holder[dst as usize] = Some(i);
            self.reg_of[i] = Some(dst);
        }
    }

    /// `vpternlogq`'s immediate for `f(a, b, c)`.
    fn truth(f: impl Fn(bool, bool, bool) -> bool) -> u8 {
        (0..8u8)
            .filter(|&i| f(i & 4 != 0, i & 2 != 0, i & 1 != 0))
            .fold(0, |imm, i| imm | 1 << i)
    }
}

/// The six instructions compiled circuits are made of, encoded here: an assembler crate
/// (`iced-x86`, the tests' oracle for these bytes) builds its tables of every instruction on
/// first use, 160 page faults and half a millisecond, a sixth of a short run's whole process.
#[cfg(any(test, all(target_arch = "x86_64", target_os = "linux")))]
mod encode {
    /// The general registers that hold addresses: the batch and the spill area.
    #[derive(Clone, Copy, Debug)]
    pub(super) enum Base {
        Rdx = 2,
        Rdi = 7,
    }

    #[derive(Default)]
    pub(super) struct Asm {
        pub(super) bytes: Vec<u8>,
    }

    /// What an EVEX instruction's ModRM.rm names: a vector register or `[base + disp]`.
    #[derive(Clone, Copy)]
    enum Rm {
        Zmm(u8),
        Mem(Base, i32),
    }

    impl Asm {
        /// `vmovdqu64 zmm{dst}, [base + disp]`.
        pub(super) fn load(&mut self, dst: u8, base: Base, disp: i32) {
            self.evex(0x6f, 1, 0b10, dst, 0, Rm::Mem(base, disp), None);
        }

        /// `vmovdqu64 [base + disp], zmm{src}`.
        pub(super) fn store(&mut self, base: Base, disp: i32, src: u8) {
            self.evex(0x7f, 1, 0b10, src, 0, Rm::Mem(base, disp), None);
        }

        /// `vpternlogq zmm{a}, zmm{b}, zmm{c}, imm`.
        pub(super) fn ternlog(&mut self, a: u8, b: u8, c: u8, imm: u8) {
            self.evex(0x25, 3, 0b01, a, b, Rm::Zmm(c), Some(imm));
        }

        /// `vpternlogq zmm{a}, zmm{b}, [base + disp], imm`.
        pub(super) fn ternlog_mem(&mut self, a: u8, b: u8, base: Base, disp: i32, imm: u8) {
            self.evex(0x25, 3, 0b01, a, b, Rm::Mem(base, disp), Some(imm));
        }

        /// The loop's end: `add rdi, 64; dec rsi; jnz start; vzeroupper; ret`.
        pub(super) fn loop_back_to(&mut self, start: usize) {
            self.bytes
                .extend([0x48, 0x83, 0xc7, 0x40, 0x48, 0xff, 0xce, 0x0f, 0x85]);
            let rel = start as i64 - (self.bytes.len() as i64 + 4);
            self.bytes.extend((rel as i32).to_le_bytes());
            self.bytes.extend([0xc5, 0xf8, 0x77, 0xc3]);
        }

        /// An EVEX.512 instruction with W1: `map` 1 (0F) or 3 (0F3A), `pp` the implied prefix,
        /// `reg` in ModRM.reg, `vvvv` the second source (0 where none), `rm` the last.
        #[allow(clippy::too_many_arguments)]
        fn evex(&mut self, op: u8, map: u8, pp: u8, reg: u8, vvvv: u8, rm: Rm, imm: Option<u8>) {
            let bit = |v: u8, b: u8| v >> b & 1;
            // R, X, B, R' and V' are stored inverted; a memory operand has no index (X) and
            // a base below r8 (B).
            let (x, b) = match rm {
                Rm::Zmm(r) => (bit(r, 4), bit(r, 3)),
                Rm::Mem(..) => (0, 0),
            };
            let p0 = (1 - bit(reg, 3)) << 7 | (1 - x) << 6 | (1 - b) << 5 | (1 - bit(reg, 4)) << 4;
            let p1 = 1 << 7 | (!vvvv & 0xf) << 3 | 1 << 2 | pp;
            let p2 = 0b10 << 5 | (1 - bit(vvvv, 4)) << 3;
            self.bytes.extend([0x62, p0 | map, p1, p2, op]);
            let reg = (reg & 7) << 3;
            match rm {
                Rm::Zmm(r) => self.bytes.push(0b11 << 6 | reg | (r & 7)),
                Rm::Mem(base, disp) => {
                    let base = base as u8;
                    // The shortest form, as assemblers choose it: no displacement, one byte
                    // counted in 64-byte units (EVEX's compressed displacement of a whole
                    // register), or four.
                    if disp == 0 {
                        self.bytes.push(reg | base);
                    } else if disp % 64 == 0 && (-128..=127).contains(&(disp / 64)) {
                        self.bytes
                            .extend([0b01 << 6 | reg | base, (disp / 64) as i8 as u8]);
                    } else {
                        self.bytes.push(0b10 << 6 | reg | base);
                        self.bytes.extend(disp.to_le_bytes());
                    }
                }
            }
            self.bytes.extend(imm);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::encode::{Asm, Base};
    use super::*;
    use iced_x86::{Code as Op, Encoder, Instruction, MemoryOperand, Register};

    fn iced(instructions: &[Instruction]) -> Vec<u8> {
        let mut encoder = Encoder::new(64);
        let mut ip = 0;
        for ins in instructions {
            ip += encoder.encode(ins, ip).unwrap() as u64;
        }
        encoder.take_buffer()
    }

    /// Every register in every slot and displacements of each length: the bytes an assembler
    /// makes, `iced-x86`'s (which picks the shortest form, as the encoder here does).
    #[test]
    fn each_instruction_is_encoded_as_an_assembler_encodes_it() {
        let zmm = |r: u8| Register::ZMM0 + r as u32;
        let bases = [(Base::Rdi, Register::RDI), (Base::Rdx, Register::RDX)];
        let disps = [
            0,
            64,
            -64,
            127 * 64,
            -128 * 64,
            128 * 64,
            8,
            -8,
            1088,
            9 * 1088,
            1 << 20,
        ];
        for r in 0..32u8 {
            for (base, reg) in bases {
                for disp in disps {
                    // No displacement where it is zero, else the shortest that holds it.
                    let size = if disp == 0 { 0 } else { 1 };
                    let m = MemoryOperand::new(
                        reg,
                        Register::None,
                        1,
                        disp as i64,
                        size,
                        false,
                        Register::None,
                    );
                    let mut asm = Asm::default();
                    asm.load(r, base, disp);
                    asm.store(base, disp, r);
                    let expected = iced(&[
                        Instruction::with2(Op::EVEX_Vmovdqu64_zmm_k1z_zmmm512, zmm(r), m).unwrap(),
                        Instruction::with2(Op::EVEX_Vmovdqu64_zmmm512_k1z_zmm, m, zmm(r)).unwrap(),
                    ]);
                    assert_eq!(asm.bytes, expected, "zmm{r}, {reg:?} + {disp}");
                    for b in [0, 7, 8, 15, 16, 31, r] {
                        let mut asm = Asm::default();
                        asm.ternlog_mem(r, b, base, disp, 0xca);
                        let op = Op::EVEX_Vpternlogq_zmm_k1z_zmm_zmmm512b64_imm8;
                        let expected =
                            iced(&[Instruction::with4(op, zmm(r), zmm(b), m, 0xca).unwrap()]);
                        assert_eq!(asm.bytes, expected, "zmm{r}, zmm{b}, {reg:?} + {disp}");
                    }
                }
            }
            for b in 0..32u8 {
                for c in 0..32u8 {
                    let mut asm = Asm::default();
                    asm.ternlog(r, b, c, 0x96);
                    let op = Op::EVEX_Vpternlogq_zmm_k1z_zmm_zmmm512b64_imm8;
                    let expected =
                        iced(&[Instruction::with4(op, zmm(r), zmm(b), zmm(c), 0x96).unwrap()]);
                    assert_eq!(asm.bytes, expected, "zmm{r}, zmm{b}, zmm{c}");
                }
            }
        }
        // The loop's end, jumping back over a body of 100 bytes.
        let mut asm = Asm::default();
        asm.bytes.resize(100, 0x90);
        asm.loop_back_to(0);
        let mut expected = vec![0x90; 100];
        let mut encoder = Encoder::new(64);
        let mut ip = 100u64;
        for ins in [
            Instruction::with2(Op::Add_rm64_imm8, Register::RDI, 64).unwrap(),
            Instruction::with1(Op::Dec_rm64, Register::RSI).unwrap(),
            Instruction::with_branch(Op::Jne_rel32_64, 0).unwrap(),
            Instruction::with(Op::VEX_Vzeroupper),
            Instruction::with(Op::Retnq),
        ] {
            ip += encoder.encode(&ins, ip).unwrap() as u64;
        }
        expected.extend(encoder.take_buffer());
        assert_eq!(asm.bytes, expected);
    }
    use crate::rule::{MapNotation, MapRule, Neighbourhood, Rule};

    /// Words per input array in these tests: an odd stride, unlike the tile engine's batch.
    const STRIDE: usize = 136;

    /// Runs `rule`'s compiled circuit on random batches of 1 to 17 runs of eight rows and
    /// checks every bit against the rule's table; false where this CPU compiles no circuit.
    fn compiled_matches_table(rule: &MapRule, seed: u64) -> bool {
        let circuit = Circuit::new(rule);
        let Some(compiled) = CompiledCircuit::new(&circuit, STRIDE) else {
            return false;
        };
        let mut rng = crate::hash::SplitMix64(seed);
        let mut batch = vec![0u64; 10 * STRIDE];
        let mut scratch = vec![0u64; compiled.scratch_words()];
        for vectors in 1..=17 {
            batch.iter_mut().for_each(|w| *w = rng.next_u64());
            // SAFETY: ten arrays of STRIDE words, each longer than 17 runs of eight rows.
            unsafe { compiled.run(batch.as_mut_ptr(), vectors, scratch.as_mut_ptr()) };
            for k in 0..vectors * 8 {
                let word = batch[9 * STRIDE + k];
                for bit in 0..64 {
                    let index = (0..9).fold(0u16, |i, b| {
                        i | ((batch[b * STRIDE + k] >> bit & 1) as u16) << b
                    });
                    assert_eq!(
                        word >> bit & 1 == 1,
                        rule.next(index),
                        "{vectors} runs, row {k}, bit {bit}, block {index:#05x}"
                    );
                }
            }
            // Past the runs asked for, nothing is written.
            assert!(batch[9 * STRIDE + vectors * 8..].iter().all(|&w| w != 0));
        }
        true
    }

    /// Golly's non-totalistic rules, a hexagonal one, a MAP string and Life itself: circuits
    /// of a few dozen nodes, all in registers.
    #[test]
    fn compiled_circuits_give_the_table_s_answer_in_every_bit() {
        for (i, text) in [
            "B3/S23",
            "B2-a/S12",
            "B37/S2-i34q",
            "B2-ac3ai/S1c2-n3-aky4a",
            "B2-a5/S1e2-a35678",
            "B2aei3r4kn5jnr6k/S2ai3k4iknqr5r6ai",
            "B2/S34H",
            "MAPARYXfhZofugWaH7oaIDogBZofuhogOiAaIDogIAAgAAWaH7oaIDogGiA6ICAAIAAaIDogIAAgACAAIAAAAAAAA",
        ]
        .into_iter()
        .enumerate()
        {
            let rule: Rule = text.parse().unwrap();
            let map = rule.block_rule().unwrap();
            if !compiled_matches_table(&map, i as u64) {
                eprintln!("no AVX-512 here: the interpreter runs every circuit");
                return;
            }
        }
    }

    /// Random tables of all 512 blocks make circuits of a hundred nodes and more, wider than
    /// the registers: values are spilled and read back. A constant rule and a rule that copies
    /// one cell compile to no node and to one.
    #[test]
    fn circuits_wider_than_the_registers_spill_and_stay_right() {
        let mut rng = crate::hash::SplitMix64(99);
        let mut rules: Vec<MapRule> = (0..6)
            .map(|_| {
                let table: [u64; 8] = std::array::from_fn(|_| rng.next_u64());
                MapRule::from_fn(Neighbourhood::Moore, MapNotation::Map, |i| {
                    table[i as usize / 64] >> (i % 64) & 1 == 1
                })
            })
            .collect();
        rules.push(MapRule::from_fn(
            Neighbourhood::Moore,
            MapNotation::Map,
            |_| false,
        ));
        rules.push(MapRule::from_fn(
            Neighbourhood::Moore,
            MapNotation::Map,
            |_| true,
        ));
        rules.push(MapRule::from_fn(
            Neighbourhood::Moore,
            MapNotation::Map,
            |i| i >> 4 & 1 == 1,
        ));
        let mut spilled = false;
        for (i, rule) in rules.iter().enumerate() {
            let circuit = Circuit::new(rule);
            match CompiledCircuit::new(&circuit, STRIDE) {
                Some(c) => spilled |= c.spills > 0,
                None => return,
            }
            assert!(compiled_matches_table(rule, 100 + i as u64));
        }
        assert!(spilled, "a random table's circuit spills");
    }
}
