//! The one registry mechanism behind `bosweep list`, sweep configs and `--algo`/`--problem`:
//! entries grouped by family (each paper's module exports its slice), listed in order and found
//! by name. Algorithms and problems each keep their own entry type (what building one needs
//! differs); the lookup and its error message are written once here.

/// An entry of a [`Registry`]: something with a registry name.
pub trait Named {
    /// The kebab-case name users give (`gp-ucb`, `branin`).
    fn name(&self) -> &'static str;
}

/// Entries by family, in listing order.
pub struct Registry<E: 'static> {
    /// What an entry is, for messages: `algorithm`, `problem`.
    kind: &'static str,
    families: &'static [&'static [E]],
}

impl<E: Named> Registry<E> {
    /// A registry of `kind` (`algorithm`, `problem`) listing `families` in order.
    pub const fn new(kind: &'static str, families: &'static [&'static [E]]) -> Self {
        Self { kind, families }
    }

    /// Every entry, family after family.
    pub fn entries(&self) -> impl Iterator<Item = &'static E> + Clone + use<E> {
        self.families.iter().flat_map(|family| family.iter())
    }

    /// Every entry's name, in listing order.
    pub fn names(&self) -> Vec<&'static str> {
        self.entries().map(Named::name).collect()
    }

    /// The entry called `name`, or a message naming the nearest known names where some are
    /// close ([`crate::io::nearest`]), else every known one.
    pub fn find(&self, name: &str) -> Result<&'static E, String> {
        self.entries().find(|e| e.name() == name).ok_or_else(|| {
            let names = self.names();
            match crate::io::did_you_mean(name, &names) {
                Some(question) => format!(
                    "unknown {} \"{name}\": {question} (`bosweep list` names all {})",
                    self.kind,
                    names.len()
                ),
                None => format!(
                    "unknown {} \"{name}\" (known: {})",
                    self.kind,
                    names.join(", ")
                ),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Entry(&'static str);

    impl Named for Entry {
        fn name(&self) -> &'static str {
            self.0
        }
    }

    static REGISTRY: Registry<Entry> =
        Registry::new("widget", &[&[Entry("a"), Entry("b")], &[Entry("c")]]);

    #[test]
    fn entries_are_listed_in_family_order_and_found_by_name() {
        assert_eq!(REGISTRY.names(), ["a", "b", "c"]);
        assert_eq!(REGISTRY.find("c").unwrap().0, "c");
        assert_eq!(
            REGISTRY.find("dd").err().unwrap(),
            "unknown widget \"dd\" (known: a, b, c)"
        );
        assert_eq!(
            REGISTRY.find("C").err().unwrap(),
            "unknown widget \"C\": did you mean \"c\"? (`bosweep list` names all 3)"
        );
    }
}
