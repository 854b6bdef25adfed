//! Three objectives: the dimension sweep of HV3D⁺ (Guerreiro & Fonseca 2018).

use super::super::staircase::{Staircase, Step};

/// The volume `points` (triples, each strictly better than `reference`) dominate.
///
/// The points are swept in ascending order of the third objective. Between one point's third
/// objective and the next, the cross-section of the dominated region is the area of the
/// two-objective staircase of the points swept so far, which each new point updates by what it
/// adds ([`Staircase::insert`]); a point whose projection a step covers adds nothing. Guerreiro &
/// Fonseca split this into a preprocessing sweep (Kung, Luccio & Preparata 1975) that records
/// each point's neighbours in the staircase and a linear pass over the areas; one pass that
/// does both costs the same, `O(n log n)`.
pub(super) fn volume(points: &mut [f64], reference: &[f64]) -> f64 {
    let (rows, _) = points.as_chunks_mut::<3>();
    rows.sort_unstable_by(|a, b| a[2].total_cmp(&b[2]));
    let mut stairs = Staircase::new([reference[0], reference[1]]);
    let mut removed = Vec::new();
    let (mut area, mut volume) = (0.0, 0.0);
    let mut z = rows.first().map_or(reference[2], |p| p[2]);
    for (id, &[x, y, next_z]) in rows.iter().enumerate() {
        volume += area * (next_z - z);
        z = next_z;
        if !stairs.covers(x, y) {
            removed.clear();
            area += stairs.insert(Step { x, y, id }, &mut removed).gained;
        }
    }
    volume + area * (reference[2] - z)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_boxes_overlapping() {
        // Under (2, 2, 2), (0, 0, 1) spans 2·2·1 = 4 and (1, 1, 0) spans 1·1·2 = 2; the boxes
        // share [1, 2]³, of volume 1: 4 + 2 − 1 = 5.
        let mut points = [0.0, 0.0, 1.0, 1.0, 1.0, 0.0];
        assert_eq!(volume(&mut points, &[2.0, 2.0, 2.0]), 5.0);
    }

    #[test]
    fn the_unit_simplex_corners() {
        // (1, 0, 0), (0, 1, 0) and (0, 0, 1) under (2, 2, 2): three boxes of volume 4, each two
        // sharing a box of volume 2, all three the unit cube [1, 2]³: 3·4 − 3·2 + 1 = 7.
        let mut points = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
        assert_eq!(volume(&mut points, &[2.0, 2.0, 2.0]), 7.0);
    }
}
