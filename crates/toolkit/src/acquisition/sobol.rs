//! Boxes `[lo, hi]` and seeded, Owen-scrambled Sobol candidate grids in them.

use std::sync::OnceLock;

use rayon::prelude::*;
use sobol_burley::parts::{
    Int4, hash_int4, owen_scramble_int4_rev, owen_scramble_rev, sobol_int4_rev,
};

use bosweep_engine::{EngineError, Points};

/// The dimensions with their own Sobol direction numbers (the Joe–Kuo numbers of
/// `sobol_burley`). A grid of more dimensions is padded ([`SobolGrid`]).
pub const MAX_SOBOL_DIM: usize = 256;

/// The dimension sets (of four) with their own direction numbers.
const SETS: usize = MAX_SOBOL_DIM / 4;

/// Points per independently scrambled block: `sobol_burley` sequences hold at most 2^16 points.
pub const SOBOL_BLOCK: usize = 1 << 16;

/// The default grid size `min(2^12 · d, 2^20)`.
pub fn default_grid_size(dim: usize) -> usize {
    (dim.max(1) << 12).min(1 << 20)
}

/// An axis-aligned box `Π_i [lo_i, hi_i]` with finite `lo_i ≤ hi_i` (`lo_i = hi_i` fixes a
/// coordinate, e.g. the time column of a time-varying GP).
#[derive(Clone, Debug, PartialEq)]
pub struct Bounds {
    lo: Vec<f64>,
    hi: Vec<f64>,
}

impl Bounds {
    /// The box `Π_i [lo_i, hi_i]`; an error for no coordinates, lengths that differ, or a
    /// side that is not finite with `lo_i ≤ hi_i`.
    pub fn new(lo: Vec<f64>, hi: Vec<f64>) -> Result<Self, EngineError> {
        if lo.is_empty() {
            return Err(EngineError::invalid("bounds: dimension 0"));
        }
        if lo.len() != hi.len() {
            return Err(EngineError::invalid(format!(
                "bounds: {} lower and {} upper values",
                lo.len(),
                hi.len()
            )));
        }
        for (i, (l, h)) in lo.iter().zip(&hi).enumerate() {
            if !(l.is_finite() && h.is_finite() && l <= h) {
                return Err(EngineError::invalid(format!(
                    "bounds: coordinate {i} has [{l}, {h}] (need finite lo <= hi)"
                )));
            }
        }
        Ok(Self { lo, hi })
    }

    /// `[lo, hi]^dim`.
    pub fn cube(lo: f64, hi: f64, dim: usize) -> Result<Self, EngineError> {
        Self::new(vec![lo; dim], vec![hi; dim])
    }

    /// Number of coordinates.
    pub fn dim(&self) -> usize {
        self.lo.len()
    }

    /// Lower bounds.
    pub fn lo(&self) -> &[f64] {
        &self.lo
    }

    /// Upper bounds.
    pub fn hi(&self) -> &[f64] {
        &self.hi
    }

    /// Whether `x` has the box's dimension and lies inside it (bounds included).
    pub fn contains(&self, x: &[f64]) -> bool {
        x.len() == self.dim()
            && x.iter()
                .zip(self.lo.iter().zip(&self.hi))
                .all(|(v, (l, h))| l <= v && v <= h)
    }

    /// `lo + u ⊙ (hi − lo)` for `u ∈ [0, 1]^d`, clamped into the box against rounding.
    pub fn from_unit(&self, u: &[f64], out: &mut [f64]) {
        for (i, (o, u)) in out.iter_mut().zip(u).enumerate() {
            let (l, h) = (self.lo[i], self.hi[i]);
            *o = (l + u * (h - l)).clamp(l, h);
        }
    }

    /// The inverse of [`Bounds::from_unit`] (0 on fixed coordinates).
    pub fn to_unit(&self, x: &[f64], out: &mut [f64]) {
        for (i, (o, x)) in out.iter_mut().zip(x).enumerate() {
            let w = self.hi[i] - self.lo[i];
            *o = if w > 0.0 {
                ((x - self.lo[i]) / w).clamp(0.0, 1.0)
            } else {
                0.0
            };
        }
    }
}

/// The first `size` points of scrambled Sobol sequences mapped into a box.
///
/// Point `i` lies in block `b = i / 2^16` at position `j = i mod 2^16`: it is point number
/// `j ⊕ (j >> 1)` (Gray-code order, Antonov–Saleev) of the Sobol sequence with the Joe–Kuo
/// direction numbers of `sobol_burley`, Owen-scrambled by `sobol_burley`'s hash-based scramble
/// (Burley 2020) with a scramble seed derived from the grid's seed and `b`. So a grid is
/// reproducible per seed, any point can be regenerated from its index, and consecutive points
/// cost one XOR per coordinate before scrambling. Blocks are independent randomisations
/// (`sobol_burley` sequences hold 2^16 points). Within a block every power-of-two prefix keeps
/// the Sobol net property: `2^m` points stratify every 1-D projection into `2^m` equal cells, and
/// the first two coordinates into every `2^a × 2^b` grid with `a + b = m`. Coordinates come
/// out as f32, on a lattice of spacing `2^−23` of the box width; refinement removes that limit.
///
/// Beyond [`MAX_SOBOL_DIM`] dimensions the grid is padded (Burley 2020, section 4): dimension
/// `i` takes the direction numbers of dimension `i mod 256`, and each further group of 256
/// dimensions its own Owen scramble of the point's index, so that the groups are independent
/// randomisations of one net; each group keeps the net property, and pairs across groups are
/// as independent as random points. Grids of at most 256 dimensions are not padded.
#[derive(Clone, Debug, PartialEq)]
pub struct SobolGrid {
    bounds: Bounds,
    size: usize,
    seed: u64,
}

/// SplitMix64's finaliser: decorrelates the (seed, block) pair into a 32-bit scramble seed.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Bits of a Sobol index in one block.
const BLOCK_BITS: usize = 16;

/// The direction vectors (bit-reversed, four dimensions at a time) of every dimension set:
/// `directions()[set][k]` is the Sobol integer of index `2^k`.
fn directions() -> &'static [[[u32; 4]; BLOCK_BITS]] {
    static DIRECTIONS: OnceLock<Vec<[[u32; 4]; BLOCK_BITS]>> = OnceLock::new();
    DIRECTIONS.get_or_init(|| {
        (0..SETS as u32)
            .map(|set| {
                std::array::from_fn(|k| sobol_int4_rev((1u32 << k).reverse_bits(), set).into())
            })
            .collect()
    })
}

/// Gray code of `j`.
fn gray(j: usize) -> usize {
    j ^ (j >> 1)
}

impl SobolGrid {
    /// `size ≥ 1` points in `bounds` (size at most 2^32).
    pub fn new(bounds: Bounds, size: usize, seed: u64) -> Result<Self, EngineError> {
        if size == 0 || size as u64 > 1 << 32 {
            return Err(EngineError::invalid(format!(
                "Sobol grid: size {size} (must lie in 1..=2^32)"
            )));
        }
        Ok(Self { bounds, size, seed })
    }

    /// The box the grid fills.
    pub fn bounds(&self) -> &Bounds {
        &self.bounds
    }

    /// Number of points.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Number of coordinates.
    pub fn dim(&self) -> usize {
        self.bounds.dim()
    }

    /// The scrambling seed: one grid per seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The Owen-scramble keys of block `block`, one per dimension set (as `sample_4d` derives
    /// them from a 32-bit seed), and the index-scramble keys of the padding groups after the
    /// first.
    fn scrambles(&self, block: usize) -> (Vec<Int4>, Vec<u32>) {
        let seed = (mix(self.seed ^ mix(block as u64)) >> 32) as u32;
        let seed: Int4 = [seed.wrapping_mul(0x9c8f_2d3b); 4].into();
        let keys: Int4 = [0x912f_69ba, 0x174f_18ab, 0x691e_72ca, 0xb40c_c1b8].into();
        let sets = self.dim().div_ceil(4);
        let values = (0..sets as u32)
            .map(|set| hash_int4(seed ^ [set; 4].into() ^ keys))
            .collect();
        let shuffles = (1..sets.div_ceil(SETS) as u32)
            .map(|group| {
                let key: Int4 = [group.wrapping_mul(0x2c1b_3c6d) ^ 0x68e3_1da4; 4].into();
                <[u32; 4]>::from(hash_int4(seed ^ key))[0]
            })
            .collect();
        (values, shuffles)
    }

    /// The unscrambled Sobol integers of index `g` (< 2^16) of the first `state.len()` (at most
    /// 64) dimension sets, one `Int4` per set; a padding group's sets take the same numbers.
    fn sobol_state(g: usize, state: &mut [Int4]) {
        for (st, set) in state.iter_mut().zip(directions()) {
            let mut acc = Int4::from([0u32; 4]);
            for (k, dir) in set.iter().enumerate() {
                if g >> k & 1 == 1 {
                    acc ^= (*dir).into();
                }
            }
            *st = acc;
        }
    }

    /// The Sobol integers of the padding groups at position `local` of a block: each group's
    /// sets at the index its own Owen scramble maps `local` to (a bijection of `0..2^16`).
    fn padded_state(shuffles: &[u32], local: usize, state: &mut [Int4]) {
        let reversed = (local as u32).reverse_bits();
        for (key, group) in shuffles.iter().zip(state.chunks_mut(SETS).skip(1)) {
            let index = owen_scramble_rev(reversed, *key).reverse_bits() as usize & 0xffff;
            Self::sobol_state(gray(index), group);
        }
    }

    /// Scrambles `state` and maps it into the box.
    fn emit(&self, state: &[Int4], scrambles: &[Int4], out: &mut [f64]) {
        let (lo, hi) = (&self.bounds.lo, &self.bounds.hi);
        for (set, (st, key)) in state.iter().zip(scrambles).enumerate() {
            let u = owen_scramble_int4_rev(*st, *key)
                .reverse_bits()
                .to_f32_norm();
            for (k, v) in u.iter().enumerate() {
                let i = 4 * set + k;
                if i < out.len() {
                    out[i] = (lo[i] + f64::from(*v) * (hi[i] - lo[i])).clamp(lo[i], hi[i]);
                }
            }
        }
    }

    /// Writes points `start..start + out.len()/dim` into `out`, stepping the Sobol integers by
    /// Gray code (one XOR per dimension set and point).
    fn fill(&self, start: usize, out: &mut [f64]) {
        let dim = self.dim();
        let sets = dim.div_ceil(4);
        let first = sets.min(SETS);
        let mut state = vec![Int4::from([0u32; 4]); sets];
        let (mut scrambles, mut shuffles) = (Vec::new(), Vec::new());
        for (r, row) in out.chunks_exact_mut(dim).enumerate() {
            let index = start + r;
            let local = index % SOBOL_BLOCK;
            if r == 0 || local == 0 {
                (scrambles, shuffles) = self.scrambles(index / SOBOL_BLOCK);
                Self::sobol_state(gray(local), &mut state[..first]);
            } else {
                let dir = &directions()[..first];
                let k = local.trailing_zeros() as usize;
                for (st, d) in state.iter_mut().zip(dir) {
                    *st ^= d[k].into();
                }
            }
            Self::padded_state(&shuffles, local, &mut state);
            self.emit(&state, &scrambles, row);
        }
    }

    /// Writes point `index` (< size) into `out` (length `dim`).
    pub fn point_into(&self, index: usize, out: &mut [f64]) {
        assert!(
            index < self.size,
            "Sobol grid index {index} >= size {}",
            self.size
        );
        self.fill(index, out);
    }

    /// Point `index`.
    pub fn point(&self, index: usize) -> Vec<f64> {
        let mut out = vec![0.0; self.dim()];
        self.point_into(index, &mut out);
        out
    }

    /// Points `start..end` (end ≤ size), generated in parallel.
    pub fn points(&self, start: usize, end: usize) -> Points {
        assert!(
            start <= end && end <= self.size,
            "Sobol grid rows {start}..{end} of {}",
            self.size
        );
        const ROWS_PER_TASK: usize = 1024;
        let dim = self.dim();
        let mut data = vec![0.0; (end - start) * dim];
        data.par_chunks_mut(dim * ROWS_PER_TASK)
            .enumerate()
            .for_each(|(c, chunk)| self.fill(start + c * ROWS_PER_TASK, chunk));
        Points::new(data, dim).expect("Sobol points are finite")
    }

    /// The whole grid (`size × dim` values: mind the memory for large grids).
    pub fn all(&self) -> Points {
        self.points(0, self.size)
    }
}
