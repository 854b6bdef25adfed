//! "Did you mean": the known names nearest to one a user mistyped, so that a message can name
//! them instead of listing every name there is.

/// The names among `known` nearest to `given`, in their order: those at the smallest edit
/// distance (Levenshtein, letters compared case-insensitively, `-` and `_` alike) when it is at
/// most a third of `given`'s length (at least 1); none when no name is that close.
pub fn nearest<'a>(given: &str, known: &[&'a str]) -> Vec<&'a str> {
    let fold = |s: &str| -> Vec<char> {
        s.chars()
            .map(|c| {
                if c == '_' {
                    '-'
                } else {
                    c.to_ascii_lowercase()
                }
            })
            .collect()
    };
    let given_chars = fold(given);
    let limit = (given_chars.len() / 3).max(1);
    let distances: Vec<usize> = known
        .iter()
        .map(|name| edit_distance(&given_chars, &fold(name)))
        .collect();
    let Some(&best) = distances.iter().min() else {
        return Vec::new();
    };
    if best > limit {
        return Vec::new();
    }
    known
        .iter()
        .zip(&distances)
        .filter(|(_, d)| **d == best)
        .map(|(name, _)| *name)
        .collect()
}

/// ` did you mean "a" or "b"?` for the names nearest to `given` ([`nearest`]), or `None`.
pub fn did_you_mean(given: &str, known: &[&str]) -> Option<String> {
    let near = nearest(given, known);
    let quoted: Vec<String> = near.iter().map(|n| format!("\"{n}\"")).collect();
    match quoted.split_last() {
        None => None,
        Some((last, [])) => Some(format!("did you mean {last}?")),
        Some((last, others)) => Some(format!("did you mean {} or {last}?", others.join(", "))),
    }
}

/// The Levenshtein distance of `a` and `b`: insertions, deletions and substitutions.
fn edit_distance(a: &[char], b: &[char]) -> usize {
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitute = previous[j] + usize::from(ca != cb);
            current.push(substitute.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALGORITHMS: [&str; 6] = ["random", "gp-ucb", "ei", "logei", "qlognei", "turbo"];

    #[test]
    fn a_mistyped_name_gets_its_nearest_names_and_a_far_one_none() {
        assert_eq!(nearest("logeii", &ALGORITHMS), ["logei"]);
        assert_eq!(nearest("qlogNEI", &ALGORITHMS), ["qlognei"]);
        assert_eq!(nearest("gp_ucb", &ALGORITHMS), ["gp-ucb"]);
        assert_eq!(nearest("budjet", &["budget", "init", "seed"]), ["budget"]);
        assert!(nearest("random-search", &ALGORITHMS).is_empty());
        assert!(nearest("x", &[]).is_empty());
        // Ties are all named, in the known order.
        assert_eq!(nearest("eii", &["ei", "eij"]), ["ei", "eij"]);
    }

    #[test]
    fn the_suggestion_reads_as_a_question() {
        assert_eq!(
            did_you_mean("logeii", &ALGORITHMS).unwrap(),
            "did you mean \"logei\"?"
        );
        assert_eq!(
            did_you_mean("ab", &["a", "b", "abc", "xyz"]).unwrap(),
            "did you mean \"a\", \"b\" or \"abc\"?"
        );
        assert_eq!(did_you_mean("zzzzzz", &ALGORITHMS), None);
        assert_eq!(edit_distance(&['a', 'b'], &[]), 2);
    }
}
