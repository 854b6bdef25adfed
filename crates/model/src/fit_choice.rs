//! The GP hyperparameter fits a user picks by name: one table of names, one parser with one
//! error message and one default (`map`), shared by the command line's `gp predict --fit`, the
//! Python package's `GP(fit=…)` and the GP baselines' `fit` parameter, so that the same word
//! means the same fit everywhere.

use std::fmt;
use std::str::FromStr;

use super::fit::FitMode;
use super::priors::Priors;

/// A hyperparameter fit by the name users give it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FitChoice {
    /// MAP with BoTorch's Gamma priors ([`Priors::botorch`]): the default, as in BoTorch.
    #[default]
    Map,
    /// MAP with BoTorch's dimension-scaled priors ([`Priors::botorch_dimension_scaled`]).
    MapDimensionScaled,
    /// MAP with the SAAS prior of BoTorch's MAP SAAS model ([`Priors::botorch_saas`]), its
    /// global shrinkage fitted with the other hyperparameters.
    MapSaas,
    /// ML-II: the log marginal likelihood alone.
    Mle,
    /// The given values, unchanged.
    Fixed,
}

impl bosweep_core::params::Choice for FitChoice {
    const WORDS: &'static [&'static str] = &Self::NAMES;
    const VALUES: &'static [Self] = &Self::ALL;
}

impl FitChoice {
    /// Every fit, in the order of [`FitChoice::NAMES`].
    pub const ALL: [Self; 5] = [
        Self::Map,
        Self::MapDimensionScaled,
        Self::MapSaas,
        Self::Mle,
        Self::Fixed,
    ];
    /// The names users give, in the order of [`FitChoice::ALL`].
    pub const NAMES: [&'static str; 5] = ["map", "map-dsp", "map-saas", "mle", "fixed"];

    /// The name users give this fit.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Map => "map",
            Self::MapDimensionScaled => "map-dsp",
            Self::MapSaas => "map-saas",
            Self::Mle => "mle",
            Self::Fixed => "fixed",
        }
    }

    /// The fit of a GP on `dim` inputs (the dimension-scaled priors depend on it).
    pub fn mode(self, dim: usize) -> FitMode {
        match self {
            Self::Map => FitMode::Map {
                priors: Priors::botorch(),
            },
            Self::MapDimensionScaled => FitMode::Map {
                priors: Priors::botorch_dimension_scaled(dim),
            },
            Self::MapSaas => FitMode::Map {
                priors: Priors::botorch_saas(),
            },
            Self::Mle => FitMode::Mle,
            Self::Fixed => FitMode::Fixed,
        }
    }
}

impl fmt::Display for FitChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A fit name that is none of [`FitChoice::NAMES`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownFit(pub String);

impl fmt::Display for UnknownFit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown fit mode \"{}\" (expected one of {})",
            self.0,
            FitChoice::NAMES.join(", ")
        )
    }
}

impl std::error::Error for UnknownFit {}

impl FromStr for FitChoice {
    type Err = UnknownFit;

    fn from_str(text: &str) -> Result<Self, UnknownFit> {
        Self::ALL
            .into_iter()
            .find(|choice| choice.name() == text)
            .ok_or_else(|| UnknownFit(text.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_parses_to_its_fit_and_back() {
        for (choice, name) in FitChoice::ALL.into_iter().zip(FitChoice::NAMES) {
            assert_eq!(name.parse::<FitChoice>(), Ok(choice));
            assert_eq!(choice.to_string(), name);
        }
        assert_eq!(FitChoice::default(), FitChoice::Map);
    }

    #[test]
    fn an_unknown_name_is_refused_listing_the_choices() {
        for text in ["MLE", "ml", "", "map "] {
            assert_eq!(
                text.parse::<FitChoice>().unwrap_err().to_string(),
                format!(
                    "unknown fit mode \"{text}\" (expected one of map, map-dsp, map-saas, mle, \
                     fixed)"
                )
            );
        }
    }

    #[test]
    fn each_choice_fits_its_mode() {
        assert_eq!(
            FitChoice::Map.mode(3),
            FitMode::Map {
                priors: Priors::botorch()
            }
        );
        assert_eq!(
            FitChoice::MapDimensionScaled.mode(3),
            FitMode::Map {
                priors: Priors::botorch_dimension_scaled(3)
            }
        );
        assert_eq!(
            FitChoice::MapSaas.mode(3),
            FitMode::Map {
                priors: Priors::botorch_saas()
            }
        );
        assert_eq!(FitChoice::Mle.mode(3), FitMode::Mle);
        assert_eq!(FitChoice::Fixed.mode(3), FitMode::Fixed);
    }
}
