//! What the report shows of a problem of several objectives in objective space, from each run's
//! final non-dominated set ([`super::final_front`]): per algorithm the median run by final
//! hypervolume and its set, and in two objectives the empirical attainment surfaces of its runs
//! (`bosweep_core::pareto::attainment_surfaces`). Everything is kept in minimisation form (each
//! maximised objective negated, as every indicator is computed) with the senses beside it, so
//! that the plot turns it back into each objective's own sense in one place.

use super::final_front::flip;
use super::load::CompletedRun;
use bosweep_core::pareto::{Front, Surface, attainment_surfaces, median_level};
use bosweep_problems::Sense;

/// One algorithm's median run: its final set and why it was chosen.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct MedianRun {
    pub color: usize,
    pub algorithm: String,
    pub replicate: usize,
    /// The runs it is the median of.
    pub runs: usize,
    pub hypervolume: f64,
    /// Minimisation form.
    pub points: Vec<Vec<f64>>,
}

/// One algorithm's attainment surfaces over its runs (two objectives, minimisation form).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Attainment {
    pub color: usize,
    pub algorithm: String,
    pub runs: usize,
    /// ⌈runs/2⌉.
    pub median_level: usize,
    pub median: Surface,
    /// Attained by at least one run.
    pub best: Surface,
    /// Attained by every run.
    pub worst: Surface,
}

/// A problem's figures in objective space.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Fronts {
    pub problem: String,
    pub senses: Vec<Sense>,
    pub reference_point: Option<Vec<f64>>,
    /// Whether the figures take the reference point into their view and mark it
    /// ([`reference_near`]).
    pub reference_shown: bool,
    /// The true front's sample, where the problem (rebuilt from its setting) gives one;
    /// minimisation form.
    pub true_front: Option<Vec<Vec<f64>>>,
    /// Per algorithm whose runs all know their final hypervolume.
    pub medians: Vec<MedianRun>,
    /// Per algorithm with runs, in two objectives only.
    pub attainment: Vec<Attainment>,
    /// File stems under `plots/`: the median runs' sets and the attainment surfaces (two
    /// objectives).
    pub front_name: String,
    pub attainment_name: Option<String>,
}

impl Fronts {
    /// The number of objectives.
    pub fn m(&self) -> usize {
        self.senses.len()
    }

    /// The median runs' figure's file stem, where some algorithm has a median run (every one
    /// of its runs knows its final hypervolume).
    pub fn front_figure(&self) -> Option<&str> {
        (!self.medians.is_empty()).then_some(self.front_name.as_str())
    }

    /// The attainment surfaces' figure's file stem, in two objectives.
    pub fn attainment_figure(&self) -> Option<&str> {
        (self.attainment_name.as_deref()).filter(|_| !self.attainment.is_empty())
    }
}

/// Whether `reference` lies within the points' own span of them in every objective, so that
/// a view that takes it in still shows the points: a reference point set far out (ZDT's
/// (11, 11), for a front within [0, 1]²) would squash them into a corner, and is then left out
/// of the view and named in the caption instead. True where there are no points.
pub(crate) fn reference_near<'a>(
    reference: &[f64],
    points: impl Iterator<Item = &'a [f64]>,
) -> bool {
    let mut bounds = vec![(f64::INFINITY, f64::NEG_INFINITY); reference.len()];
    for p in points {
        for ((lo, hi), v) in bounds.iter_mut().zip(p) {
            (*lo, *hi) = (lo.min(*v), hi.max(*v));
        }
    }
    bounds.iter().zip(reference).all(|(&(lo, hi), &r)| {
        if lo > hi {
            return true;
        }
        let span = if hi > lo { hi - lo } else { hi.abs().max(1.0) };
        (lo - span..=hi + span).contains(&r)
    })
}

/// The run of `runs` whose final hypervolume is the median, the lower middle one of an even
/// number (ties by replicate): a typical run rather than the best, whose front would flatter
/// the method. `None` where a run lacks its final front or hypervolume.
pub(crate) fn median_run<'a>(runs: &[&'a CompletedRun]) -> Option<(&'a CompletedRun, f64)> {
    let mut ranked: Vec<(&CompletedRun, f64)> = runs
        .iter()
        .map(|c| {
            c.trace.final_front.as_ref()?;
            Some((*c, c.trace.last().best_value?))
        })
        .collect::<Option<_>>()?;
    ranked.sort_by(|a, b| (a.1.total_cmp(&b.1)).then(a.0.spec.replicate.cmp(&b.0.spec.replicate)));
    ranked.get(ranked.len().checked_sub(1)? / 2).copied()
}

/// The figures of a problem of several objectives whose algorithms are `cells` (palette index,
/// label, completed runs), their files named from `name`; `None` where no run keeps its final
/// front (archived runs do not).
pub(crate) fn fronts(
    problem: &str,
    name: &str,
    cells: &[(usize, String, Vec<&CompletedRun>)],
    true_front: Option<Vec<Vec<f64>>>,
) -> Option<Fronts> {
    let first = cells
        .iter()
        .flat_map(|(_, _, done)| done.iter())
        .find_map(|c| c.trace.final_front.as_deref())?;
    let m = first.senses.len();
    // Runs of the same problem share senses and width; one that does not is left out rather
    // than drawn on another axis.
    let fits = |c: &&&CompletedRun| {
        c.trace
            .final_front
            .as_ref()
            .is_some_and(|f| f.senses == first.senses)
    };
    let mut medians = Vec::new();
    let mut attainment = Vec::new();
    for (color, algorithm, done) in cells {
        let runs: Vec<&CompletedRun> = done.iter().filter(fits).copied().collect();
        if runs.is_empty() {
            continue;
        }
        if let Some((run, hypervolume)) = median_run(&runs) {
            medians.push(MedianRun {
                color: *color,
                algorithm: algorithm.clone(),
                replicate: run.spec.replicate,
                runs: runs.len(),
                hypervolume,
                points: run.trace.final_front.as_ref()?.points.clone(),
            });
        }
        if m == 2 {
            let values: Vec<Vec<f64>> = runs
                .iter()
                .filter_map(|c| c.trace.final_front.as_ref())
                .map(|f| f.points.concat())
                .collect();
            let fronts: Vec<Front> = values
                .iter()
                .map(|v| Front::new(v, 2))
                .collect::<Result<_, _>>()
                .ok()?;
            let mut surfaces = attainment_surfaces(&fronts).ok()?;
            let level = median_level(runs.len())?;
            let worst = surfaces.pop()?;
            attainment.push(Attainment {
                color: *color,
                algorithm: algorithm.clone(),
                runs: runs.len(),
                median_level: level,
                median: surfaces.get(level - 1).cloned().unwrap_or(worst.clone()),
                best: surfaces.first().cloned().unwrap_or(worst.clone()),
                worst,
            });
        }
    }
    let true_front = true_front
        .filter(|f| f.iter().all(|p| p.len() == m))
        .map(|f| {
            f.iter()
                .map(|p| {
                    p.iter()
                        .zip(&first.senses)
                        .map(|(v, s)| flip(*v, *s))
                        .collect()
                })
                .collect()
        });
    let drawn =
        (true_front.iter().flatten().map(Vec::as_slice))
            .chain(
                medians
                    .iter()
                    .flat_map(|r| r.points.iter().map(Vec::as_slice)),
            )
            .chain(attainment.iter().flat_map(|a| {
                (a.best.iter().chain(&a.median).chain(&a.worst)).map(|p| p.as_slice())
            }));
    let reference_shown =
        (first.reference_point.as_deref()).is_some_and(|r| reference_near(r, drawn));
    Some(Fronts {
        problem: problem.to_owned(),
        senses: first.senses.clone(),
        reference_point: first.reference_point.clone(),
        reference_shown,
        true_front,
        medians,
        attainment_name: (m == 2).then(|| format!("{name}-attainment")),
        attainment,
        front_name: format!("{name}-front"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::final_front::FinalFront;
    use crate::report::final_front::tests::spec;
    use crate::report::load::{Step, Trace};

    /// A run of replicate `replicate` whose final hypervolume is `hv` and whose final set is
    /// `points` (minimisation form, two objectives).
    fn completed(replicate: usize, hv: f64, points: &[[f64; 2]]) -> CompletedRun {
        let mut trace = Trace::of_steps([Step {
            best_value: Some(hv),
            ..Step::with_regret(1, 1.0)
        }]);
        trace.final_front = Some(std::sync::Arc::new(FinalFront {
            senses: vec![Sense::Minimize, Sense::Minimize],
            reference_point: Some(vec![4.0, 4.0]),
            points: points.iter().map(|p| p.to_vec()).collect(),
        }));
        CompletedRun {
            spec: spec(replicate),
            trace,
        }
    }

    #[test]
    fn the_median_run_is_the_middle_hypervolume_the_lower_one_of_an_even_number() {
        let odd = [
            completed(0, 3.0, &[]),
            completed(1, 1.0, &[]),
            completed(2, 2.0, &[]),
        ];
        let refs: Vec<&CompletedRun> = odd.iter().collect();
        let (run, hv) = median_run(&refs).unwrap();
        assert_eq!((run.spec.replicate, hv), (2, 2.0));
        let even = [
            completed(0, 4.0, &[]),
            completed(1, 1.0, &[]),
            completed(2, 3.0, &[]),
            completed(3, 2.0, &[]),
        ];
        let refs: Vec<&CompletedRun> = even.iter().collect();
        let (run, hv) = median_run(&refs).unwrap();
        assert_eq!((run.spec.replicate, hv), (3, 2.0));
        assert!(median_run(&[]).is_none());
    }

    #[test]
    fn a_problems_figures_hold_each_algorithms_median_run_and_surfaces() {
        let runs = [
            completed(0, 5.0, &[[1.0, 3.0], [3.0, 1.0]]),
            completed(1, 7.0, &[[1.0, 2.0], [2.0, 1.0]]),
            completed(2, 3.0, &[[2.0, 3.0]]),
        ];
        let cells = vec![(1, "random".to_owned(), runs.iter().collect())];
        let f = fronts("zdt1", "zdt1", &cells, Some(vec![vec![0.0, 1.0]])).unwrap();
        assert_eq!(f.front_figure(), Some("zdt1-front"));
        assert_eq!(f.attainment_figure(), Some("zdt1-attainment"));
        assert_eq!(f.true_front, Some(vec![vec![0.0, 1.0]]));
        let median = &f.medians[0];
        assert_eq!((median.replicate, median.runs, median.color), (0, 3, 1));
        assert_eq!(median.points, [vec![1.0, 3.0], vec![3.0, 1.0]]);
        let a = &f.attainment[0];
        assert_eq!(a.median_level, 2);
        assert_eq!(a.best, [[1.0, 2.0], [2.0, 1.0]]);
        assert_eq!(a.median, [[1.0, 3.0], [3.0, 1.0]]);
        assert_eq!(a.worst, [[2.0, 3.0]]);
        // The points span [1, 3] in both objectives: (4, 4) is within that span of them.
        assert!(f.reference_shown);
    }

    #[test]
    fn a_reference_point_far_beyond_the_points_is_left_out_of_the_view() {
        let points: [&[f64]; 2] = [&[0.0, 1.0], &[1.0, 0.0]];
        assert!(reference_near(&[2.0, 2.0], points.into_iter()));
        assert!(!reference_near(&[11.0, 2.0], points.into_iter()));
        assert!(!reference_near(&[0.5, -1.5], points.into_iter()));
        assert!(reference_near(&[11.0, 11.0], std::iter::empty()));
    }
}
