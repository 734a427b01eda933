//! Property tests for the dice layer.

use proptest::prelude::*;

use super::*;

/// Strings from the characters dice texts are made of, so that most of them
/// get deep into the parsers before failing.
fn dice_alphabet() -> impl Strategy<Value = String> {
    let chars: Vec<char> = "0123456789dD+- on+DT".chars().collect();
    prop::collection::vec(prop::sample::select(chars), 0..24).prop_map(|v| v.into_iter().collect())
}

fn valid_expr() -> impl Strategy<Value = Expr> {
    (1u32..=100, 2u32..=1000, -1000i32..=1000)
        .prop_map(|(n, x, m)| Expr::new(n, x, m).expect("in range"))
}

fn valid_pool() -> impl Strategy<Value = Pool> {
    (1u32..=100, 1u32..=1000, -1000i32..=1000)
        .prop_map(|(n, t, m)| Pool::new(n, t, m).expect("in range"))
}

/// A valid `NdX±M` as a player might type it: any case of `d`, the count
/// sometimes left out when it is 1, spaces anywhere between the parts.
fn typed_expr() -> impl Strategy<Value = (Expr, String)> {
    (
        valid_expr(),
        any::<bool>(),
        any::<bool>(),
        prop::collection::vec(" {0,2}", 4),
    )
        .prop_map(|(e, upper, show_one, sp)| {
            let count = if e.count() == 1 && !show_one {
                String::new()
            } else {
                e.count().to_string()
            };
            let d = if upper { "D" } else { "d" };
            let modifier = match e.modifier() {
                0 => String::new(),
                m if m > 0 => format!("{}+{}{m}", sp[2], sp[3]),
                m => format!("{}-{}{}", sp[2], sp[3], m.unsigned_abs()),
            };
            let text = format!(
                "{}{count}{}{d}{}{}{modifier}",
                sp[0],
                sp[1],
                sp[1],
                e.sides()
            );
            (e, text)
        })
}

fn ladder() -> Ladder {
    Ladder::from_texts(&["2d4", "2d6", "2d8", "2d10", "2d12"]).expect("valid ladder")
}

fn heartbreaker() -> PoolRules {
    PoolRules {
        sides: 6,
        natural_fail: Some(1),
        double_success: Some(6),
        double_needs_target: false,
    }
}

fn no_parser_panics(text: &str) -> Result<(), TestCaseError> {
    for err in [
        parse(text).err(),
        parse_pool(text).err(),
        ladder().parse(text).err(),
    ]
    .into_iter()
    .flatten()
    {
        prop_assert!(!err.to_string().is_empty());
    }
    Ok(())
}

proptest! {
    // (a) parse never panics, on any string at all...
    #[test]
    fn parse_never_panics_on_any_string(text in any::<String>()) {
        no_parser_panics(&text)?;
    }

    // (a) ...nor on strings made of the dice-text alphabet.
    #[test]
    fn parse_never_panics_on_dice_like_strings(text in dice_alphabet()) {
        no_parser_panics(&text)?;
        if let Ok(e) = parse(&text) {
            prop_assert_eq!(parse(&e.to_string()), Ok(e));
        }
        if let Ok(p) = parse_pool(&text) {
            prop_assert_eq!(parse_pool(&p.to_string()), Ok(p));
        }
    }

    // (b) a typed NdX±M parses to itself, and its seeded roll stays in bounds.
    #[test]
    fn seeded_rolls_stay_within_min_and_max((expr, text) in typed_expr(), seed in any::<u64>()) {
        prop_assert_eq!(parse(&text), Ok(expr), "{:?}", text);
        let r = Dice::seeded(seed).roll(&expr, &DiceDialect::default()).expect("rolls");
        prop_assert!(expr.min() <= r.total && r.total <= expr.max());
        prop_assert_eq!(r.dice.len(), expr.count() as usize);
        prop_assert!(r.dice.iter().all(|d| (1..=expr.sides()).contains(d)));
        prop_assert_eq!(r.source, RollSource::App { seed });
    }

    // (c) the same seed gives the same record.
    #[test]
    fn same_seed_same_record(expr in valid_expr(), pool in valid_pool(), seed in any::<u64>()) {
        let dialect = DiceDialect::default();
        let a = Dice::seeded(seed).roll(&expr, &dialect).expect("rolls");
        let b = Dice::seeded(seed).roll(&expr, &dialect).expect("rolls");
        prop_assert_eq!(a, b);
        let a = Dice::seeded(seed).roll_pool(&pool, &heartbreaker()).expect("rolls");
        let b = Dice::seeded(seed).roll_pool(&pool, &heartbreaker()).expect("rolls");
        prop_assert_eq!(a, b);
    }

    // (d) parse(expr.to_string()) == expr, for expressions and pools.
    #[test]
    fn display_round_trips(expr in valid_expr(), pool in valid_pool()) {
        prop_assert_eq!(parse(&expr.to_string()), Ok(expr));
        prop_assert_eq!(parse_pool(&pool.to_string()), Ok(pool));
    }

    // (e) entered dice out of range are refused; in range they are kept.
    #[test]
    fn entered_faces_out_of_range_are_refused(
        expr in valid_expr(),
        which in any::<prop::sample::Index>(),
        zero in any::<bool>(),
        over in 1u32..=1_000_000,
    ) {
        let n = expr.count() as usize;
        let ok = vec![expr.sides(); n];
        let r = entered(&expr, &ok).expect("in range");
        prop_assert_eq!(r.total, expr.max());
        prop_assert_eq!(r.source, RollSource::Hand);

        let bad = if zero { 0 } else { expr.sides() + over };
        let mut faces = ok.clone();
        faces[which.index(n)] = bad;
        prop_assert_eq!(
            entered(&expr, &faces),
            Err(DiceError::NotAFace { value: bad, sides: expr.sides() })
        );
        faces = ok;
        faces.push(1);
        let refused = matches!(entered(&expr, &faces), Err(DiceError::WrongCount { .. }));
        prop_assert!(refused, "one face too many was accepted");
    }

    // A pool's successes lie between none and two per die, and agree die by die.
    #[test]
    fn pool_successes_are_bounded(pool in valid_pool(), seed in any::<u64>()) {
        let r = Dice::seeded(seed).roll_pool(&pool, &heartbreaker()).expect("rolls");
        prop_assert_eq!(r.rolls.len(), pool.count() as usize);
        prop_assert!(0 <= r.total && r.total <= 2 * i64::from(pool.count()));
        prop_assert_eq!(r.successes().map(i64::from), Some(r.total));
    }

    // Rerolling one die changes only that die and keeps its old face.
    #[test]
    fn reroll_touches_one_die(expr in valid_expr(), which in any::<prop::sample::Index>(), seed in any::<u64>()) {
        let mut dice = Dice::seeded(seed);
        let r = dice.roll(&expr, &DiceDialect::default()).expect("rolls");
        let i = which.index(r.rolls.len());
        let again = r.rerolled(i, &mut dice).expect("die exists");
        prop_assert_eq!(&again.rolls[i].replaced, &vec![r.rolls[i].face]);
        for (j, (a, b)) in r.rolls.iter().zip(&again.rolls).enumerate() {
            if j != i {
                prop_assert_eq!(a, b);
            }
        }
        prop_assert!(expr.min() <= again.total && again.total <= expr.max());
    }

    // Tier shifts always land on the ladder, clamped exactly when they overshoot.
    #[test]
    fn tier_shifts_land_on_the_ladder(rung in 0usize..5, steps in -10i32..=10) {
        let l = ladder();
        let from = l.rungs()[rung];
        let s = l.shift(&from, steps).expect("on the ladder");
        let to = l.position(&s.to).expect("lands on the ladder");
        let wanted = rung as i64 + i64::from(steps);
        prop_assert_eq!(s.clamped, !(0..5).contains(&wanted));
        prop_assert_eq!(to as i64, wanted.clamp(0, 4));
        prop_assert_eq!(rung as i64 + i64::from(s.applied), to as i64);
    }
}
