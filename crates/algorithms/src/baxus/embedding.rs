//! The BAxUS embedding (Papenmeier, Nardi and Poloczek, NeurIPS 2022, Section 3; the reference
//! implementation's `AxUS` in `baxus/util/projections.py`): a sparse `d × D` matrix `S` with one
//! entry ±1 in each column, so that every input dimension belongs to exactly one target
//! dimension ("bin"), the bins as equal in size as possible. A target point `z ∈ [−1, 1]^d` maps
//! up to `x = Sᵀz ∈ [−1, 1]^D`: input coordinate `i` is `±z_j`, `j` its bin.
//!
//! Splitting a bin moves some of its input dimensions, with their signs, to new target
//! dimensions. The embedding is nested: a point of the old target space is the point of the
//! new one whose new coordinates copy the coordinate of the bin they came from, with the same
//! image in the input space, so the observations carry over to the new space.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// The sparse embedding `S`: each input dimension's bin and sign.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Embedding {
    /// The bin (target dimension) of each input dimension.
    bin: Vec<usize>,
    /// The sign (±1) of each input dimension in its bin.
    positive: Vec<bool>,
    target_dim: usize,
}

impl Embedding {
    /// A random embedding of `input_dim` dimensions into `target_dim` bins: the input
    /// dimensions in a random order cut into `target_dim` consecutive bins whose sizes differ by
    /// at most one (the larger first, as NumPy's `array_split`), each with a random sign. With
    /// `target_dim ≥ input_dim`, the identity (the reference's, drawing nothing).
    pub fn new(input_dim: usize, target_dim: usize, rng: &mut ChaCha8Rng) -> Self {
        if target_dim >= input_dim {
            return Self {
                bin: (0..input_dim).collect(),
                positive: vec![true; input_dim],
                target_dim: input_dim,
            };
        }
        let order = permutation(input_dim, rng);
        let mut bin = vec![0; input_dim];
        for (j, part) in array_split(&order, target_dim).into_iter().enumerate() {
            for &i in part {
                bin[i] = j;
            }
        }
        let positive = (0..input_dim).map(|_| rng.random::<bool>()).collect();
        Self {
            bin,
            positive,
            target_dim,
        }
    }

    /// The input dimension `D`.
    pub fn input_dim(&self) -> usize {
        self.bin.len()
    }

    /// The target dimension `d`.
    pub fn target_dim(&self) -> usize {
        self.target_dim
    }

    /// The input dimensions of each bin, in increasing order.
    pub fn bins(&self) -> Vec<Vec<usize>> {
        let mut bins = vec![Vec::new(); self.target_dim];
        for (i, &j) in self.bin.iter().enumerate() {
            bins[j].push(i);
        }
        bins
    }

    /// The image `x = Sᵀz` of target point `z`, both in unit-cube coordinates (`z` in
    /// `[0, 1]^d` for the reference's `2z − 1 ∈ [−1, 1]^d`): `x_i = z_j` for a positive sign,
    /// `1 − z_j` for a negative one, inside the cube by construction (the reference's image
    /// lies in `[−1, 1]^D` for the same reason).
    pub fn up(&self, z: &[f64]) -> Vec<f64> {
        self.bin
            .iter()
            .zip(&self.positive)
            .map(|(&j, &positive)| if positive { z[j] } else { 1.0 - z[j] })
            .collect()
    }

    /// Splits every bin of more than one input dimension into `min(new_bins + 1, size)` bins:
    /// its dimensions in a random order cut as [`Self::new`] cuts, the first part staying in
    /// the bin and each other part, signs kept, becoming a new target dimension after the
    /// existing ones (the reference's `increase_target_dimensionality`). Returns, for each
    /// target dimension of the new space, the old one whose coordinate it copies
    /// ([`Split::lift`]).
    pub fn split(&mut self, new_bins: usize, rng: &mut ChaCha8Rng) -> Split {
        let mut parent: Vec<usize> = (0..self.target_dim).collect();
        for (j, members) in self.bins().into_iter().enumerate() {
            if members.len() < 2 {
                continue;
            }
            let order: Vec<usize> = permutation(members.len(), rng)
                .into_iter()
                .map(|k| members[k])
                .collect();
            let parts = (new_bins + 1).min(order.len());
            for part in array_split(&order, parts).into_iter().skip(1) {
                for &i in part {
                    self.bin[i] = parent.len();
                }
                parent.push(j);
            }
        }
        self.target_dim = parent.len();
        Split { parent }
    }
}

/// How a split's new target space relates to the old one.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Split {
    /// For each new target dimension, the old one it came from.
    parent: Vec<usize>,
}

impl Split {
    /// The point of the new target space with the same image as the old space's `z`: each new
    /// coordinate copies its parent's.
    pub fn lift(&self, z: &[f64]) -> Vec<f64> {
        self.parent.iter().map(|&j| z[j]).collect()
    }
}

/// A uniformly random permutation of `0..n` (Fisher–Yates).
fn permutation(n: usize, rng: &mut ChaCha8Rng) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        order.swap(i, rng.random_range(0..=i));
    }
    order
}

/// `items` cut into `parts` consecutive pieces whose sizes differ by at most one, the larger
/// first (NumPy's `array_split`, which the reference cuts bins with).
fn array_split<T>(items: &[T], parts: usize) -> Vec<&[T]> {
    let (size, extra) = (items.len() / parts, items.len() % parts);
    let mut pieces = Vec::with_capacity(parts);
    let mut start = 0;
    for k in 0..parts {
        let end = start + size + usize::from(k < extra);
        pieces.push(&items[start..end]);
        start = end;
    }
    pieces
}
