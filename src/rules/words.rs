//! Counting in a game's own words: "1 crew", "3 flyers", "2 races". The
//! singular and the plural both come from the pack (`[words]`, `[record]
//! noun` and `nouns`); the app never makes a plural of a game's word.

use super::model::{RecordRules, Words};

/// The nouns of `[words]` a message can count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Noun {
    /// `gang` / `gangs`.
    Gang,
    /// `fighter` / `fighters`.
    Fighter,
    /// `entry` / `entries`: one entry of the catalog a fighter has.
    Entry,
    /// `leader` / `leaders`.
    Leader,
}

/// `n` and the singular or the plural, as `n` asks: "1 crew", "0 crews".
pub fn counted(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

impl Words {
    /// The game's word for one `noun` (`crew`).
    pub fn one(&self, noun: Noun) -> &str {
        match noun {
            Noun::Gang => &self.gang,
            Noun::Fighter => &self.fighter,
            Noun::Entry => &self.entry,
            Noun::Leader => &self.leader,
        }
    }

    /// The game's word for several (`crews`).
    pub fn many(&self, noun: Noun) -> &str {
        match noun {
            Noun::Gang => &self.gangs,
            Noun::Fighter => &self.fighters,
            Noun::Entry => &self.entries,
            Noun::Leader => &self.leaders,
        }
    }

    /// The singular or the plural, as `n` asks, without the number.
    pub fn for_count(&self, n: usize, noun: Noun) -> &str {
        if n == 1 {
            self.one(noun)
        } else {
            self.many(noun)
        }
    }

    /// `n` of `noun` in the game's words: "1 flyer", "2 flyers".
    pub fn count(&self, n: usize, noun: Noun) -> String {
        counted(n, self.one(noun), self.many(noun))
    }
}

impl RecordRules {
    /// What several records are called, in lower case: the pack's `nouns`;
    /// left out, the noun followed by the app's own word `records`
    /// ("skirmish records"), or plain `records` for the app's own noun.
    pub fn plural(&self) -> String {
        match &self.nouns {
            Some(many) if !many.trim().is_empty() => many.clone(),
            _ if self.noun == "record" => "records".to_owned(),
            _ => format!("{} records", self.noun),
        }
    }

    /// The plural as a title ("Battles", "Sessions").
    pub fn plural_title(&self) -> String {
        crate::text::capitalised(&self.plural())
    }

    /// `n` records in the pack's words: "1 race", "2 races".
    pub fn count(&self, n: usize) -> String {
        counted(n, &self.noun, &self.plural())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words() -> Words {
        Words {
            gang: "crew".into(),
            gangs: "crews".into(),
            fighter: "flyer".into(),
            fighters: "flyers".into(),
            entry: "knack".into(),
            entries: "knacks".into(),
            leader: "captain".into(),
            leaders: "captains".into(),
            ..Default::default()
        }
    }

    #[test]
    fn a_count_takes_the_singular_for_one_and_the_plural_otherwise() {
        let w = words();
        assert_eq!(w.count(1, Noun::Gang), "1 crew");
        assert_eq!(w.count(0, Noun::Gang), "0 crews");
        assert_eq!(w.count(2, Noun::Fighter), "2 flyers");
        assert_eq!(w.count(1, Noun::Entry), "1 knack");
        assert_eq!(w.count(5, Noun::Entry), "5 knacks");
        assert_eq!(w.count(1, Noun::Leader), "1 captain");
        assert_eq!(w.for_count(3, Noun::Leader), "captains");
        assert_eq!(w.for_count(1, Noun::Fighter), "flyer");
    }

    #[test]
    fn a_record_counts_with_the_packs_plural() {
        let mut r = RecordRules {
            noun: "race".into(),
            nouns: Some("races".into()),
            ..Default::default()
        };
        assert_eq!(r.count(1), "1 race");
        assert_eq!(r.count(2), "2 races");
        assert_eq!(r.plural_title(), "Races");
        // No plural given: the app's own word, never a made-up plural.
        r.nouns = None;
        assert_eq!(r.count(1), "1 race");
        assert_eq!(r.count(2), "2 race records");
        assert_eq!(RecordRules::default().count(3), "3 records");
        assert_eq!(RecordRules::default().count(1), "1 record");
    }
}
