//! What a problem with black-box constraints declares beside its objectives: how many there are
//! and their names (docs/conventions.md, "Constraints"). A point is feasible when every
//! constraint value `c_j(x)` is at most 0.

use super::ProblemError;

/// The k ≥ 1 black-box constraints of a problem, each satisfied when its value is ≤ 0.
/// Unconstrained problems declare none ([`crate::Problem::constraints`] is `None`), so that
/// everything unconstrained stays as it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constraints {
    names: Vec<String>,
}

impl Constraints {
    /// `count` ≥ 1 constraints named `c1`, `c2`, ….
    pub fn new(count: usize) -> Result<Self, ProblemError> {
        Self::named((1..=count).map(|j| format!("c{j}")).collect())
    }

    /// Constraints with these names (at least one, none empty, no two alike), in the order
    /// their values come.
    pub fn named(names: Vec<String>) -> Result<Self, ProblemError> {
        if names.is_empty() {
            return Err(ProblemError::config(
                "a constrained problem needs at least 1 constraint, got 0",
            ));
        }
        if let Some(empty) = names.iter().position(String::is_empty) {
            return Err(ProblemError::config(format!(
                "constraint {} has an empty name",
                empty + 1
            )));
        }
        for (i, name) in names.iter().enumerate() {
            if names[..i].contains(name) {
                return Err(ProblemError::config(format!(
                    "constraint name \"{name}\" appears twice"
                )));
            }
        }
        Ok(Self { names })
    }

    /// The number of constraints k.
    pub fn count(&self) -> usize {
        self.names.len()
    }

    /// The constraints' names, in the order of their values.
    pub fn names(&self) -> &[String] {
        &self.names
    }
}

/// Whether constraint values `values` are all satisfied (each ≤ 0); true for none.
pub fn feasible(values: &[f64]) -> bool {
    values.iter().all(|&c| c <= 0.0)
}

/// The total violation `Σ_j max(c_j, 0)` of constraint values: 0 exactly when they are
/// feasible; what feasible-first choices rank infeasible points by.
pub fn violation(values: &[f64]) -> f64 {
    values.iter().map(|&c| c.max(0.0)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_count_and_feasibility() {
        let c = Constraints::new(3).unwrap();
        assert_eq!(c.count(), 3);
        assert_eq!(c.names(), ["c1", "c2", "c3"]);
        assert!(feasible(&[0.0, -1.0]) && feasible(&[]));
        assert!(!feasible(&[1e-12, -5.0]));
        assert_eq!(violation(&[0.5, -2.0, 1.25]), 1.75);
        assert_eq!(violation(&[-0.5, 0.0]), 0.0);
    }

    #[test]
    fn bad_declarations_are_errors_naming_the_problem() {
        let none = Constraints::new(0).unwrap_err().to_string();
        assert!(none.contains("at least 1 constraint"), "{none}");
        let twice = Constraints::named(vec!["g".into(), "g".into()])
            .unwrap_err()
            .to_string();
        assert!(twice.contains("\"g\" appears twice"), "{twice}");
        let empty = Constraints::named(vec!["g".into(), String::new()])
            .unwrap_err()
            .to_string();
        assert!(empty.contains("constraint 2 has an empty name"), "{empty}");
    }
}
